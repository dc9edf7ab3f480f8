/**
 * Segment labels of docs/product/web.md §2; other segments are capitalised. Every label below is the
 * seed's (seed-specification.md §2 "Breadcrumb" lists them), so the ones for routes this product does
 * not have (employees, attendance, departments, products, …) stay (issue #30); `security` is ours.
 */
export const BREADCRUMB_LABELS: Record<string, string> = {
  app: 'Dashboard',
  // All the seed's; employee(s), attendance, tracking, departments, positions, products, units,
  // brands, models and profile name routes this product does not have.
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
  // Ours, not the seed's: /app/security.
  security: 'Two-step sign-in',
};

export interface Crumb {
  label: string;
  /** Where the crumb links to; the last crumb has none. */
  href?: string;
}

export const capitalise = (segment: string) =>
  segment ? segment.charAt(0).toUpperCase() + segment.slice(1) : segment;

/**
 * Middle crumbs that are pages of their own and may link. `/app/company` and `/app/account` are
 * groups, not pages, and a record id has no page without its action (`/:id/read`), so they stay
 * plain text.
 */
export const LINKABLE_CRUMBS: ReadonlySet<string> = new Set([
  '/app',
  '/app/company/users',
  '/app/company/roles',
  '/app/company/permissions',
  '/app/company/audit',
  '/app/power7',
  '/app/power7/books',
]);

/**
 * Pages whose address is not under their sidebar group: the crumbs name the group the sidebar files
 * them under (plain text, like `/app/company`). `/app/security` keeps its address (bookmarks, mails)
 * while the sidebar lists it under Company (issue #43).
 */
const FILED_UNDER: Readonly<Record<string, string>> = { security: 'Company' };

/** Shown for a record id until its page has registered the record's name. */
export const UNKNOWN_RECORD_LABEL = 'Record';

const RECORD_ACTIONS = new Set(['read', 'update', 'delete']);
const ID_PATTERN =
  /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24})$/i;

/** A record id: followed by a record action, or shaped like a number, UUID or object id. */
function isRecordId(segment: string, next: string | undefined) {
  return (next !== undefined && RECORD_ACTIONS.has(next)) || ID_PATTERN.test(segment);
}

/**
 * Crumbs for a path under /app, always starting with Dashboard (docs/product/web.md §2). A record id shows the name
 * `recordName` knows for it, never the raw id.
 */
export function buildBreadcrumbs(
  pathname: string,
  recordName: (id: string) => string | undefined = () => undefined,
): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const rest = (segments[0] === 'app' ? segments.slice(1) : segments).map(safeDecode);
  const crumbs: Crumb[] = [{ label: 'Dashboard', href: '/app' }];
  const group = rest[0] === undefined ? undefined : FILED_UNDER[rest[0]];
  if (group) crumbs.push({ label: group });
  let href = '/app';
  rest.forEach((segment, index) => {
    href += `/${encodeURIComponent(segment)}`;
    const label = isRecordId(segment, rest[index + 1])
      ? (recordName(segment) ?? UNKNOWN_RECORD_LABEL)
      : (BREADCRUMB_LABELS[segment] ?? capitalise(segment));
    const next = rest[index + 1];
    // A named record on its edit or delete page links to its view page (the bare id is no route).
    const recordView =
      next === 'update' || next === 'delete' ? recordName(segment) && `${href}/read` : undefined;
    if (recordView) crumbs.push({ label, href: recordView });
    else crumbs.push(LINKABLE_CRUMBS.has(href) ? { label, href } : { label });
  });
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
