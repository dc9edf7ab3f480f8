import { and, eq, gt, inArray } from 'drizzle-orm';
import { notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { deletedUsers, permissions, roles, users } from '../../db/schema';
import { recordAudit, type AuditActor } from '../audit/record';
import {
  assertHolds,
  codesOfPermissions,
  codesOfRoles,
  lockCompany,
  type Actor,
} from '../roles/guards';
import { assertUnique, getUser, setLinks, snapshot } from './users';
import type { User } from '@pa/contracts/users';

type StoredRow = typeof users.$inferInsert;
const TIMESTAMPS = ['passwordChangedAt', 'lastSignInAt', 'createdAt', 'updatedAt'] as const;

/** The kept row with its timestamps as dates again (jsonb holds them as ISO text). */
function rowOf(kept: Record<string, unknown>): StoredRow {
  const row = { ...kept } as Record<string, unknown>;
  for (const key of TIMESTAMPS) {
    if (typeof row[key] === 'string') row[key] = new Date(row[key]);
  }
  return row as StoredRow;
}

/**
 * The ids among `ids` that still exist in the company (a role deleted meanwhile is dropped). Also
 * used by modules/access-restore.
 */
export async function existing(
  tx: PortalTx,
  table: typeof roles | typeof permissions | typeof users,
  companyId: string,
  ids: string[],
) {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId), inArray(table.id, ids)));
  return rows.map((row) => row.id);
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
    const row = rowOf(kept.row);
    const roleIds = await existing(tx, roles, actor.companyId, kept.roleIds);
    const permissionIds = await existing(tx, permissions, actor.companyId, kept.permissionIds);
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
    await recordAudit(tx, {
      ...audit,
      action: 'user.restore',
      entityType: 'user',
      entityId: id,
      after: snapshot(restored),
    });
    return restored;
  });
}
