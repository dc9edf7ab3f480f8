import type { Permission } from '@pa/contracts/permissions';

/** Why a permission cannot be deleted (the portal's protected-row rules), with where to fix it. */
export function permissionDeleteBlock(
  permission: Permission,
): { reason: string; fix?: { to: string; text: string } } | null {
  if (permission.isSystem)
    return { reason: 'System permissions are built in and cannot be deleted.' };
  // Every custom permission is in the Administrator role, so only roles beyond it block.
  const others = permission.roleCount - 1;
  if (others > 0)
    return {
      reason: `It is still held by ${others} role${others === 1 ? '' : 's'} besides Administrator; take it out of them first.`,
      fix: {
        to: `/app/company/roles?filters%5BpermissionId%5D=${permission._id}`,
        text: `See the roles holding it`,
      },
    };
  return null;
}
