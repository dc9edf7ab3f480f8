/**
 * The role–permission matrix: which cells may change (the portal's no-escalation and protected-role
 * rules, mirrored so a refusal is visible before saving) and the change set to save (one PATCH per
 * changed role, carrying the version it was based on).
 */
import { codeBeyond } from '@/lib/permission-gate';

export interface MatrixRole {
  _id: string;
  name: string;
  isSystem: boolean;
  permissionIds: readonly string[];
  version: number;
}

export interface MatrixPermission {
  _id: string;
  code: string;
}

/** roleId → the permission ids ticked in the matrix now. */
export type MatrixDraft = Readonly<Record<string, ReadonlySet<string>>>;

export interface RoleChange {
  roleId: string;
  name: string;
  version: number;
  permissionIds: string[];
  added: string[];
  removed: string[];
}

export function draftOf(roles: readonly MatrixRole[]): Record<string, Set<string>> {
  return Object.fromEntries(roles.map((role) => [role._id, new Set(role.permissionIds)]));
}

/** Every role whose ticks differ from what the server holds, with the full new list to send. */
export function matrixChangeSet(roles: readonly MatrixRole[], draft: MatrixDraft): RoleChange[] {
  const changes: RoleChange[] = [];
  for (const role of roles) {
    const next = draft[role._id];
    if (!next) continue;
    const before = new Set(role.permissionIds);
    const added = [...next].filter((id) => !before.has(id)).sort();
    const removed = [...before].filter((id) => !next.has(id)).sort();
    if (added.length === 0 && removed.length === 0) continue;
    changes.push({
      roleId: role._id,
      name: role.name,
      version: role.version,
      permissionIds: [...next].sort(),
      added,
      removed,
    });
  }
  return changes;
}

/** True when the cell differs from what the server holds (the matrix highlights it). */
export function isCellChanged(role: MatrixRole, permissionId: string, draft: MatrixDraft) {
  return (
    role.permissionIds.includes(permissionId) !== (draft[role._id]?.has(permissionId) ?? false)
  );
}

/**
 * Why a cell cannot change, or null when it can. `held` are the signed-in user's permission codes;
 * `codeOf` maps a permission id to its code.
 */
export function cellLockReason(
  role: MatrixRole,
  permission: MatrixPermission,
  held: ReadonlySet<string>,
  codeOf: (permissionId: string) => string | undefined,
): string | null {
  if (!held.has('roles.update')) return 'You need the “roles.update” permission to change roles.';
  if (role.isSystem) return `The ${role.name} role always holds every permission.`;
  const beyond = codeBeyond(role.permissionIds, codeOf, held);
  if (beyond) {
    return `${role.name} holds “${beyond}”, which you do not hold, so only someone holding it can change this role.`;
  }
  if (!held.has(permission.code)) {
    return `You do not hold “${permission.code}”, so you cannot give or take it.`;
  }
  return null;
}
