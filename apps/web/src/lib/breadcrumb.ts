/** Segment labels of seed §2; other segments are capitalised. */
export const BREADCRUMB_LABELS: Record<string, string> = {
  app: 'Dashboard',
  employee: 'Employee',
  employees: 'Employees',
  attendance: 'Attendance',
  tracking: 'Tracking',
  company: 'Company',
  departments: 'Departments',
  positions: 'Positions',
  users: 'Users',
  permissions: 'Permissions',
  roles: 'Roles',
  products: 'Products',
  units: 'Units',
  brands: 'Brands',
  models: 'Models',
  profile: 'Profile',
  create: 'Create',
  read: 'View',
  update: 'Edit',
  delete: 'Delete',
  edit: 'Edit',
  'change-password': 'Change Password',
};

export interface Crumb {
  label: string;
  /** Where the crumb links to; the last crumb has none. */
  href?: string;
}

export const capitalise = (segment: string) =>
  segment ? segment.charAt(0).toUpperCase() + segment.slice(1) : segment;

/**
 * Crumbs for a path under /app, always starting with Dashboard (seed §2). `recordLabel` names a
 * segment that is a record id (the page showing that record registers its name).
 */
export function buildBreadcrumbs(
  pathname: string,
  recordLabel: (segment: string) => string | undefined = () => undefined,
): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const rest = segments[0] === 'app' ? segments.slice(1) : segments;
  const crumbs: Crumb[] = [{ label: 'Dashboard', href: '/app' }];
  let href = '/app';
  for (const segment of rest) {
    href += `/${segment}`;
    const decoded = safeDecode(segment);
    const record = recordLabel(decoded);
    // A record's crumb opens its view page (the bare id path is not a route).
    if (record) crumbs.push({ label: record, href: `${href}/read` });
    else crumbs.push({ label: BREADCRUMB_LABELS[decoded] ?? capitalise(decoded), href });
  }
  delete crumbs[crumbs.length - 1]!.href;
  return crumbs;
}

function safeDecode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
