import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Permission } from '@pa/contracts/permissions';
import type { Role } from '@pa/contracts/roles';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import {
  deletedAccessRecords,
  permissions,
  rolePermissions,
  roles,
  userPermissions,
  userRoles,
  users,
} from '../../db/schema';
import type { AuditActor } from '../audit/record';
import { getPermission, permissionRecord } from '../permissions/permissions';
import { assertHolds, codesOfPermissions, lockCompany, type Actor } from '../roles/guards';
import { getRole, roleRecord } from '../roles/roles';
import { existingIds, revivedRow } from '../records/restore';

/**
 * Undo after deleting a role or a permission (docs/decisions/014-restore-roles-and-permissions.md):
 * the delete keeps the row and its links here for ACCESS_RESTORE_WINDOW_SECONDS, the restore puts
 * them back under the same id. Kept apart from roles.ts/permissions.ts, which only call `keep…`.
 */

type Kind = 'role' | 'permission';
const TIMESTAMPS = ['createdAt', 'updatedAt'] as const;

/** Drops the company's kept records whose restore window is over. */
async function purgeExpired(tx: PortalTx, companyId: string) {
  await tx
    .delete(deletedAccessRecords)
    .where(
      and(
        eq(deletedAccessRecords.companyId, companyId),
        lt(deletedAccessRecords.restorableUntil, new Date()),
      ),
    );
}

/** The ids in one column of a link table where another column is `id`. */
async function linked(tx: PortalTx, pick: PgColumn, where: PgColumn, id: string) {
  const rows = await tx.select({ id: pick }).from(pick.table).where(eq(where, id));
  return rows.map((row) => String(row.id));
}

/** Keeps the row and the links of a role or permission about to be deleted (inside its delete). */
async function keep(tx: PortalTx, actor: Actor, kind: Kind, id: string, restorableUntil: Date) {
  const table = kind === 'role' ? roles : permissions;
  const [row] = await tx
    .select()
    .from(table)
    .where(and(eq(table.id, id), eq(table.companyId, actor.companyId)));
  if (!row) return;
  const links =
    kind === 'role'
      ? {
          roleIds: [],
          permissionIds: await linked(tx, rolePermissions.permissionId, rolePermissions.roleId, id),
          userIds: await linked(tx, userRoles.userId, userRoles.roleId, id),
        }
      : {
          roleIds: await linked(tx, rolePermissions.roleId, rolePermissions.permissionId, id),
          permissionIds: [],
          userIds: await linked(tx, userPermissions.userId, userPermissions.permissionId, id),
        };
  const record = {
    id,
    companyId: actor.companyId,
    kind,
    row,
    ...links,
    deletedBy: actor.userId,
    restorableUntil,
  };
  await purgeExpired(tx, actor.companyId);
  await tx
    .insert(deletedAccessRecords)
    .values(record)
    .onConflictDoUpdate({ target: deletedAccessRecords.id, set: record });
}

/** Keeps a role about to be deleted (inside the delete's transaction): its row, permissions, users. */
export const keepRoleForRestore = (tx: PortalTx, actor: Actor, id: string, until: Date) =>
  keep(tx, actor, 'role', id, until);

/** Keeps a permission about to be deleted: its row, the roles that had it, the users given it. */
export const keepPermissionForRestore = (tx: PortalTx, actor: Actor, id: string, until: Date) =>
  keep(tx, actor, 'permission', id, until);

/** The kept record of this kind, still inside its window, or 404. */
async function takeKept(tx: PortalTx, kind: Kind, companyId: string, id: string) {
  const [kept] = await tx
    .select()
    .from(deletedAccessRecords)
    .where(
      and(
        eq(deletedAccessRecords.id, id),
        eq(deletedAccessRecords.kind, kind),
        eq(deletedAccessRecords.companyId, companyId),
        gt(deletedAccessRecords.restorableUntil, new Date()),
      ),
    );
  if (!kept) throw notFound(`A deleted ${kind} that can still be restored`);
  await tx.delete(deletedAccessRecords).where(eq(deletedAccessRecords.id, id));
  return kept;
}

/**
 * Brings back a role deleted less than the window ago: same id, name, description and version, its
 * permissions and the users who held it (those still existing). 404 after the window; 409 when a
 * role of that name was created meanwhile; 403 when the role grants permissions the caller lacks.
 */
export async function restoreRole(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
): Promise<Role> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const kept = await takeKept(tx, 'role', actor.companyId, id);
    const row = revivedRow<typeof roles.$inferInsert>(kept.row, TIMESTAMPS);
    const permissionIds = await existingIds(tx, permissions, actor.companyId, kept.permissionIds);
    assertHolds(
      actor,
      await codesOfPermissions(tx, actor.companyId, permissionIds),
      'restore this role',
    );
    const [taken] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(
        and(eq(roles.companyId, actor.companyId), sql`lower(${roles.name}) = lower(${row.name})`),
      );
    if (taken) {
      throw conflict(
        `A role named "${row.name}" was created since the delete, so this one cannot come back. Rename or delete that role first.`,
      );
    }
    await tx.insert(roles).values({ ...row, id, companyId: actor.companyId });
    if (permissionIds.length)
      await tx.insert(rolePermissions).values(
        permissionIds.map((permissionId) => ({
          roleId: id,
          permissionId,
          companyId: actor.companyId,
        })),
      );
    const userIds = await existingIds(tx, users, actor.companyId, kept.userIds);
    if (userIds.length)
      await tx
        .insert(userRoles)
        .values(userIds.map((userId) => ({ userId, roleId: id, companyId: actor.companyId })));
    const restored = await getRole(tx, actor.companyId, id);
    await roleRecord.audit(tx, audit, 'restore', id, { after: restored });
    return restored;
  });
}

/**
 * Brings back a permission deleted less than the window ago: same id, code and texts, in the roles
 * that had it and given again to the users who had it directly (those still existing). 404 after
 * the window; 409 when a permission with that code was created meanwhile.
 */
export async function restorePermission(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
): Promise<Permission> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const kept = await takeKept(tx, 'permission', actor.companyId, id);
    const row = revivedRow<typeof permissions.$inferInsert>(kept.row, TIMESTAMPS);
    const [taken] = await tx
      .select({ id: permissions.id })
      .from(permissions)
      .where(and(eq(permissions.companyId, actor.companyId), eq(permissions.code, row.code)));
    if (taken) {
      throw conflict(
        `A permission with the code ${row.code} was created since the delete, so this one cannot come back. Change or delete that permission first.`,
      );
    }
    await tx.insert(permissions).values({ ...row, id, companyId: actor.companyId });
    const roleIds = await existingIds(tx, roles, actor.companyId, kept.roleIds);
    if (roleIds.length)
      await tx
        .insert(rolePermissions)
        .values(
          roleIds.map((roleId) => ({ roleId, permissionId: id, companyId: actor.companyId })),
        );
    const userIds = await existingIds(tx, users, actor.companyId, kept.userIds);
    if (userIds.length)
      await tx
        .insert(userPermissions)
        .values(
          userIds.map((userId) => ({ userId, permissionId: id, companyId: actor.companyId })),
        );
    const restored = await getPermission(tx, actor.companyId, id);
    await permissionRecord.audit(tx, audit, 'restore', id, { after: restored });
    return restored;
  });
}
