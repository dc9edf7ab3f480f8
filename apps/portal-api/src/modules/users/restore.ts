import { and, eq, gt, lt } from 'drizzle-orm';
import type { User } from '@pa/contracts/users';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { deletedUsers, permissions, roles, users } from '../../db/schema';
import { revokeAllSignIns } from '../accounts/sign-ins';
import type { AuditActor } from '../audit/record';
import { existingIds, revivedRow } from '../records/restore';
import {
  assertHolds,
  assertSomeoneManagesRoles,
  codesOfPermissions,
  codesOfRoles,
  lockCompany,
  type Actor,
} from '../roles/guards';
import { assertMayManageUser, assertUnique, getUser, setLinks, userRecord } from './users';

/** Deleting a user, kept for a window, and bringing them back (modules/records/restore.ts). */

const TIMESTAMPS = ['passwordChangedAt', 'lastSignInAt', 'createdAt', 'updatedAt'] as const;

/**
 * Keeps what a restore needs of a user about to be deleted (the row as stored, its links) until
 * `restorableUntil`, and purges the company's kept users whose time is up.
 */
async function keepForRestore(
  tx: PortalTx,
  companyId: string,
  before: User,
  deletedBy: string,
  restorableUntil: Date,
) {
  await tx
    .delete(deletedUsers)
    .where(
      and(eq(deletedUsers.companyId, companyId), lt(deletedUsers.restorableUntil, new Date())),
    );
  const [stored] = await tx.select().from(users).where(eq(users.id, before._id));
  if (!stored) return;
  const { searchText, ...row } = stored;
  void searchText;
  await tx
    .insert(deletedUsers)
    .values({
      id: before._id,
      companyId,
      row,
      roleIds: before.roleIds,
      permissionIds: before.permissionIds,
      deletedBy,
      restorableUntil,
    })
    .onConflictDoUpdate({
      target: deletedUsers.id,
      set: { row, roleIds: before.roleIds, permissionIds: before.permissionIds, restorableUntil },
    });
}

/**
 * Deletes a user of the company (never yourself, never one more powerful than you). The user can be
 * restored for `restoreWindowMs` (`restoreUser`); returns until when.
 */
export async function deleteUser(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
  restoreWindowMs = 0,
): Promise<{ restorableUntil: Date }> {
  const restorableUntil = new Date(Date.now() + restoreWindowMs);
  await userRecord.remove(db, actor.companyId, id, audit, {
    refuse: async (tx) => {
      if (id === actor.userId) {
        throw conflict('You cannot delete your own account. Ask another administrator to do it.');
      }
      await assertMayManageUser(tx, actor, id, 'delete this user');
    },
    keep: async (tx, before) => {
      await revokeAllSignIns(tx, id, 'user deleted');
      if (restoreWindowMs > 0)
        await keepForRestore(tx, actor.companyId, before, actor.userId, restorableUntil);
    },
    afterwards: (tx) => assertSomeoneManagesRoles(tx, actor.companyId),
  });
  return { restorableUntil };
}

/**
 * Brings back a user deleted less than the restore window ago, with the same id, password, status,
 * roles and direct permissions (those still existing). Their sign-ins stay ended. 404 once the
 * window is over; 409 when someone took the user name or email meanwhile; 403 when the user holds
 * permissions the caller lacks (the delete's own rule).
 */
export async function restoreUser(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
): Promise<User> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const [kept] = await tx
      .select()
      .from(deletedUsers)
      .where(
        and(
          eq(deletedUsers.id, id),
          eq(deletedUsers.companyId, actor.companyId),
          gt(deletedUsers.restorableUntil, new Date()),
        ),
      );
    if (!kept) throw notFound('A deleted user that can still be restored');
    const row = revivedRow<typeof users.$inferInsert>(kept.row, TIMESTAMPS);
    const roleIds = await existingIds(tx, roles, actor.companyId, kept.roleIds);
    const permissionIds = await existingIds(tx, permissions, actor.companyId, kept.permissionIds);
    assertHolds(
      actor,
      [
        ...(await codesOfRoles(tx, actor.companyId, roleIds)),
        ...(await codesOfPermissions(tx, actor.companyId, permissionIds)),
      ],
      'restore this user',
    );
    await assertUnique(
      tx,
      { userName: row.userName, email: row.email },
      { companyId: actor.companyId },
    );
    await tx.insert(users).values({ ...row, id, companyId: actor.companyId });
    await setLinks(tx, actor.companyId, id, roleIds, permissionIds);
    await tx.delete(deletedUsers).where(eq(deletedUsers.id, id));
    const restored = await getUser(tx, actor.companyId, id);
    await userRecord.audit(tx, audit, 'restore', id, { after: restored });
    return restored;
  });
}
