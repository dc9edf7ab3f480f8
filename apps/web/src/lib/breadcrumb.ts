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

/** Crumbs for a path under /app, always starting with Dashboard (seed §2). */
export function buildBreadcrumbs(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const rest = segments[0] === 'app' ? segments.slice(1) : segments;
  const crumbs: Crumb[] = [{ label: 'Dashboard', href: '/app' }];
  let href = '/app';
  for (const segment of rest) {
    href += `/${segment}`;
    const decoded = safeDecode(segment);
    crumbs.push({ label: BREADCRUMB_LABELS[decoded] ?? capitalise(decoded), href });
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
