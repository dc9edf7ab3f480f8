import type { PermissionCode } from '@pa/contracts/permission-codes';

/**
 * The system permissions every company has (docs/product/services.md §3). They are seeded per company, cannot be
 * deleted or renamed, and the `Administrator` system role holds all of them.
 */
export const SYSTEM_PERMISSIONS: readonly { code: PermissionCode; name: string; group: string }[] =
  [
    { code: 'users.read', name: 'Read users', group: 'Users' },
    { code: 'users.create', name: 'Create users', group: 'Users' },
    { code: 'users.update', name: 'Update users', group: 'Users' },
    { code: 'users.delete', name: 'Delete users', group: 'Users' },
    { code: 'roles.read', name: 'Read roles', group: 'Roles' },
    { code: 'roles.create', name: 'Create roles', group: 'Roles' },
    { code: 'roles.update', name: 'Update roles', group: 'Roles' },
    { code: 'roles.delete', name: 'Delete roles', group: 'Roles' },
    { code: 'permissions.read', name: 'Read permissions', group: 'Permissions' },
    { code: 'permissions.create', name: 'Create permissions', group: 'Permissions' },
    { code: 'permissions.update', name: 'Update permissions', group: 'Permissions' },
    { code: 'permissions.delete', name: 'Delete permissions', group: 'Permissions' },
    { code: 'audit.read', name: 'Read the audit trail', group: 'Audit' },
    { code: 'power7.run', name: 'Run Power 7 analyses', group: 'Power 7' },
    { code: 'power7.download', name: 'Download Power 7 results', group: 'Power 7' },
    { code: 'power7.sessions.clear', name: 'Clear Power 7 sessions', group: 'Power 7' },
  ];

export const SYSTEM_PERMISSION_CODES: readonly string[] = SYSTEM_PERMISSIONS.map((p) => p.code);

/** Name of the seeded system role holding every system permission. */
export const ADMINISTRATOR_ROLE = 'Administrator';
