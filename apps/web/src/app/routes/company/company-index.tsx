import { Navigate } from 'react-router';
import { ForbiddenState } from '@/components/forbidden-state';
import { NAV_GROUPS, visibleNavItems } from '@/config/navigation';
import { useHeldPermissions } from '@/hooks/use-held-permissions';

/**
 * `/app/company`: the first Company page the user may open (Users, Permissions, Roles, Audit, in
 * the sidebar's order); a 403 page naming them when none.
 */
export function CompanyIndexRoute() {
  const items = NAV_GROUPS.find((group) => group.title === 'Company')?.items ?? [];
  const [first] = visibleNavItems(items, useHeldPermissions());
  if (first) return <Navigate to={first.url} replace />;
  // Any one of the pages' permissions would do, so none is named as "needed".
  return <ForbiddenState need={[]} what="the company administration" />;
}
