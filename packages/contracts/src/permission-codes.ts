/**
 * The system permission codes every company has (docs/product/services.md §3): the one list the
 * portal seeds, both services check and the web app gates its screens with. A typo in a code is a
 * type error. Companies may add custom codes of their own; these are the ones the product checks.
 */
export const SYSTEM_PERMISSION_CODES = [
  'users.read',
  'users.create',
  'users.update',
  'users.delete',
  'roles.read',
  'roles.create',
  'roles.update',
  'roles.delete',
  'permissions.read',
  'permissions.create',
  'permissions.update',
  'permissions.delete',
  'audit.read',
  'power7.run',
  'power7.download',
  'power7.sessions.clear',
] as const;

export type PermissionCode = (typeof SYSTEM_PERMISSION_CODES)[number];

/** What the Power 7 tool checks: running analyses, seeing and downloading winners, clearing sessions. */
export const POWER7_PERMISSIONS = {
  run: 'power7.run',
  download: 'power7.download',
  clear: 'power7.sessions.clear',
} as const satisfies Record<string, PermissionCode>;

export type Power7Permission = (typeof POWER7_PERMISSIONS)[keyof typeof POWER7_PERMISSIONS];
