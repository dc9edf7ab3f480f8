import type { Role } from '@pa/contracts/roles';

/** Why a role cannot be deleted (the portal's protected-row rules), with where to fix it. */
export function roleDeleteBlock(
  role: Role,
): { reason: string; fix?: { to: string; text: string } } | null {
  if (role.isSystem) return { reason: `The ${role.name} role is built in and cannot be deleted.` };
  if (role.userCount > 0)
    return {
      reason: `It is still assigned to ${role.userCount} user${role.userCount === 1 ? '' : 's'}; take it away from them first.`,
      fix: {
        to: `/app/company/users?filters%5BroleId%5D=${role._id}`,
        text: `See the ${role.userCount === 1 ? 'user' : 'users'} holding it`,
      },
    };
  return null;
}
