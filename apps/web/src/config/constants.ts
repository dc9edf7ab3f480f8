/** Business constants of docs/product/web.md §9; exact values, not suggestions. */
export { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@pa/contracts/paging';

/** A token that expires within this many seconds is treated as expired (docs/product/web.md §5). */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 30;

export const REFRESH_COOKIE = 'refreshToken';
/** 10080 minutes = 7 days; secure, same-site strict, readable by the script (docs/product/web.md §9). */
export const REFRESH_COOKIE_DAYS = 7;

export const THEME_STORAGE_KEY = 'vite-ui-theme';
export const THEME_DEFAULT = 'system';

export const PERSIST_KEY_PREFIX = 'persist:';
export const PERSIST_TIMEOUT_MS = 5000;
export const PERSIST_VERSION = -1;

export const CACHE_RETENTION_SECONDS = 60;

export const MOBILE_BREAKPOINT = 768;

export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 604800;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const SIDEBAR_SHORTCUT = 'b';

export const TOAST = {
  duration: 4000,
  visibleToasts: 3,
  gap: 14,
  width: 356,
  swipeThreshold: 45,
  removeDelay: 200,
  hotkey: ['altKey', 'KeyT'],
  /** Below the tallest top bar (public header 64 px) plus a gap. */
  offsetTop: 76,
  offsetSide: 24,
  mobileOffsetSide: 16,
} as const;

export const TOOLTIP_DELAY = 0;

/**
 * Cache tag types of docs/product/web.md §3. User, Permission, Role and Power7Process are provided
 * and invalidated; the other five are the seed's (seed-specification.md §3 "Cache tag types" lists
 * all nine) and kept for that contract although no screen of this product uses them (issue #30).
 */
export const TAG_TYPES = [
  'User',
  'Permission',
  'Role',
  // The seed's, unused here: no department, position or employee screens exist.
  'Department',
  'Position',
  'Employee',
  'EmployeePermission',
  'EmployeeRole',
  'Power7Process',
] as const;
