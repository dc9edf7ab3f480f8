import { NAV_GROUPS, visibleNavItems } from '@/config/navigation';

/** One thing the palette can open. */
export interface PaletteItem {
  id: string;
  label: string;
  /** A second line: where it is, or what the record is. */
  hint: string;
  url: string;
}

export interface PaletteGroup {
  id: string;
  heading: string;
  items: PaletteItem[];
}

/** What each page needs beyond the sidebar's own rule, so the palette never offers a 403 page. */
const PAGE_PERMISSION: Record<string, string> = {
  '/app/company/users': 'users.read',
  '/app/company/users/create': 'users.create',
  '/app/company/users/invite': 'users.create',
  '/app/company/users/import': 'users.create',
  '/app/company/roles': 'roles.read',
  '/app/company/roles/matrix': 'roles.read',
  '/app/company/roles/create': 'roles.create',
  '/app/company/permissions': 'permissions.read',
  '/app/company/permissions/create': 'permissions.create',
  '/app/company/audit': 'audit.read',
};

const EXTRA_PAGES: { title: string; url: string; group: string }[] = [
  { title: 'New user', url: '/app/company/users/create', group: 'Company' },
  { title: 'Invite user', url: '/app/company/users/invite', group: 'Company' },
  { title: 'Import users', url: '/app/company/users/import', group: 'Company' },
  { title: 'New role', url: '/app/company/roles/create', group: 'Company' },
  { title: 'Role–permission matrix', url: '/app/company/roles/matrix', group: 'Company' },
  { title: 'New permission', url: '/app/company/permissions/create', group: 'Company' },
  { title: 'My account', url: '/app/account/view', group: 'Account' },
  { title: 'Change password', url: '/app/account/change-password', group: 'Account' },
];

const matches = (text: string, query: string) =>
  query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.toLowerCase().includes(word));

/** The pages the user may open whose title or group matches every word of the query. */
export function pageItems(
  query: string,
  permissions: readonly string[] | undefined,
): PaletteItem[] {
  const held = new Set(permissions ?? []);
  const pages = [
    ...NAV_GROUPS.flatMap((group) =>
      visibleNavItems(group.items, permissions).map((item) => ({ ...item, group: group.title })),
    ),
    ...EXTRA_PAGES,
  ];
  return pages
    .filter((page) => page.url.startsWith('/app'))
    .filter((page) => !PAGE_PERMISSION[page.url] || held.has(PAGE_PERMISSION[page.url]!))
    .filter((page) => matches(`${page.title} ${page.group}`, query))
    .map((page) => ({
      id: `page:${page.url}`,
      label: page.title,
      hint: page.group,
      url: page.url,
    }));
}
