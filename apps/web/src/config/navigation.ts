import {
  BookOpenCheck,
  Building2,
  Gamepad2,
  KeyRound,
  LayoutGrid,
  LockKeyhole,
  ScrollText,
  ShieldCheck,
  Sparkles,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';

export interface NavItem {
  title: string;
  url: string;
  icon: LucideIcon;
  /** Shown only to users holding this permission code. */
  permission?: string;
}

export interface NavGroup {
  title: string;
  icon: LucideIcon;
  items: NavItem[];
}

/** The sidebar of docs/product/web.md §1/§2. Alpha 5 is only a link; it has no route. */
export const NAV_GROUPS: NavGroup[] = [
  {
    title: 'Games',
    icon: Gamepad2,
    items: [
      { title: 'All', url: '/app', icon: LayoutGrid },
      { title: 'Power 7', url: '/app/power7', icon: Zap },
      // the live books of issue #41, a page of the Power 7 tool; only for those who may sell
      {
        title: 'Live books',
        url: '/app/power7/books',
        icon: BookOpenCheck,
        permission: POWER7_PERMISSIONS.run,
      },
      { title: 'Alpha 5', url: '/alpha5', icon: Sparkles },
    ],
  },
  {
    title: 'Company',
    icon: Building2,
    items: [
      // Like Audit, each shows only to those who may open it (no links to 403 pages).
      { title: 'Users', url: '/app/company/users', icon: Users, permission: 'users.read' },
      {
        title: 'Permissions',
        url: '/app/company/permissions',
        icon: KeyRound,
        permission: 'permissions.read',
      },
      { title: 'Roles', url: '/app/company/roles', icon: ShieldCheck, permission: 'roles.read' },
      { title: 'Audit', url: '/app/company/audit', icon: ScrollText, permission: 'audit.read' },
      {
        title: 'Two-step sign-in',
        url: '/app/security',
        icon: LockKeyhole,
        permission: 'users.read',
      },
    ],
  },
];

/** The items of a group the user may see (items without a permission are for everyone). */
export function visibleNavItems<T extends { permission?: string }>(
  items: T[],
  permissions: readonly string[] | undefined,
): T[] {
  return items.filter((item) => !item.permission || (permissions ?? []).includes(item.permission));
}

const underUrl = (url: string, pathname: string) =>
  url === '/app'
    ? pathname === '/app' || pathname === '/app/'
    : pathname === url || pathname.startsWith(`${url}/`);

const NAV_URLS = NAV_GROUPS.flatMap((group) => group.items.map((item) => item.url));

/**
 * The item whose url is the longest prefix of the path is the current one: on /app/power7/books
 * that is Live books, not Power 7 too.
 */
export function isNavItemActive(url: string, pathname: string): boolean {
  if (!underUrl(url, pathname)) return false;
  return !NAV_URLS.some(
    (other) =>
      other.length > url.length && other.startsWith(`${url}/`) && underUrl(other, pathname),
  );
}
