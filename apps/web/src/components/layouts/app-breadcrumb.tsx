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

export function AppBreadcrumb() {
  const { pathname } = useLocation();
  // Re-render when a page registers the name of the record in the path.
  useBreadcrumbLabelsVersion();
  const crumbs = buildBreadcrumbs(pathname, breadcrumbLabelFor);
  return (
    <Breadcrumb className="min-w-0">
      <BreadcrumbList>
        {crumbs.map((crumb, index) => (
          <Fragment key={`${crumb.label}-${index}`}>
            {index > 0 ? <BreadcrumbSeparator /> : null}
            <BreadcrumbItem>
              {crumb.href ? (
                <BreadcrumbLink asChild>
                  <Link to={crumb.href}>{crumb.label}</Link>
                </BreadcrumbLink>
              ) : (
                // Only the last crumb is the current page; a middle one without a page is plain text.
                <BreadcrumbPage
                  aria-current={index === crumbs.length - 1 ? 'page' : undefined}
                  className={index === crumbs.length - 1 ? undefined : 'text-muted-foreground'}
                >
                  {crumb.label}
                </BreadcrumbPage>
              )}
            </BreadcrumbItem>
          </Fragment>
        ))}
      </BreadcrumbList>
    </Breadcrumb>
  );
}
