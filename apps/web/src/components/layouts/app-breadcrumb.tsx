import { Fragment } from 'react';
import { Link, useLocation } from 'react-router';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { buildBreadcrumbs } from '@/lib/breadcrumb';
import { breadcrumbLabelFor, useBreadcrumbLabelsVersion } from '@/lib/breadcrumb-labels';
import { cn } from '@/lib/utils';

export function AppBreadcrumb() {
  const { pathname } = useLocation();
  // Re-render when a page registers the name of the record in the path.
  useBreadcrumbLabelsVersion();
  const crumbs = buildBreadcrumbs(pathname, breadcrumbLabelFor);
  return (
    <Breadcrumb className="min-w-0">
      {/* One line in the top bar at every width: on narrow screens only the last two crumbs; a
          long name is cut, whole on hover. */}
      <BreadcrumbList className="flex-nowrap">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const narrowHidden = index < crumbs.length - 2 ? 'hidden md:inline-flex' : undefined;
          // the crumbs before the page stop at 10 rem (14 on wide screens) and give way first; the
          // page's own label keeps its width up to 60 % of the line (45 % on narrow screens, where
          // the page's title stands right below and the way up matters more)
          const width = last ? undefined : 'max-w-40 md:max-w-56';
          return (
            <Fragment key={`${crumb.label}-${index}`}>
              {index > 0 && index > crumbs.length - 2 ? <BreadcrumbSeparator /> : null}
              {index > 0 && index <= crumbs.length - 2 ? (
                <BreadcrumbSeparator className="hidden md:inline-flex" />
              ) : null}
              <BreadcrumbItem
                className={cn(
                  'min-w-0',
                  last && 'max-w-[45%] shrink-0 md:max-w-[60%]',
                  narrowHidden,
                )}
              >
                {crumb.href ? (
                  <BreadcrumbLink asChild className={cn('truncate', width)}>
                    <Link to={crumb.href} title={crumb.label}>
                      {crumb.label}
                    </Link>
                  </BreadcrumbLink>
                ) : (
                  // Only the last crumb is the current page; a middle one without a page is plain text.
                  <BreadcrumbPage
                    aria-current={last ? 'page' : undefined}
                    title={crumb.label}
                    className={cn('truncate', width, !last && 'text-muted-foreground')}
                  >
                    {crumb.label}
                  </BreadcrumbPage>
                )}
              </BreadcrumbItem>
            </Fragment>
          );
        })}
      </BreadcrumbList>
    </Breadcrumb>
  );
}
