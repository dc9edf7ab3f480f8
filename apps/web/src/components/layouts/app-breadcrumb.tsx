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
      {/* One line in the top bar: on narrow screens only the last two crumbs, long names cut. */}
      <BreadcrumbList className="flex-nowrap md:flex-wrap">
        {crumbs.map((crumb, index) => {
          const narrowHidden = index < crumbs.length - 2 ? 'hidden md:inline-flex' : undefined;
          return (
            <Fragment key={`${crumb.label}-${index}`}>
              {index > 0 && index > crumbs.length - 2 ? <BreadcrumbSeparator /> : null}
              {index > 0 && index <= crumbs.length - 2 ? (
                <BreadcrumbSeparator className="hidden md:inline-flex" />
              ) : null}
              {/* The current page keeps its whole label; the crumb before it gives way. */}
              <BreadcrumbItem
                className={cn(index === crumbs.length - 1 ? 'shrink-0' : 'min-w-0', narrowHidden)}
              >
                {crumb.href ? (
                  <BreadcrumbLink asChild className="max-w-40 truncate md:max-w-none">
                    <Link to={crumb.href}>{crumb.label}</Link>
                  </BreadcrumbLink>
                ) : (
                  // Only the last crumb is the current page; a middle one without a page is plain text.
                  <BreadcrumbPage
                    aria-current={index === crumbs.length - 1 ? 'page' : undefined}
                    className={cn(
                      'max-w-40 truncate md:max-w-none',
                      index === crumbs.length - 1 ? undefined : 'text-muted-foreground',
                    )}
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
