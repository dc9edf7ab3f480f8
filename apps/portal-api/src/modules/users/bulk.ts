import { asc } from 'drizzle-orm';
import type { BulkUserAnswer, BulkUserChange, BulkUserResult } from '@pa/contracts/users-bulk';
import { BULK_MAX_IDS } from '@pa/contracts/users-bulk';
import type { UpdateUserBody, User } from '@pa/contracts/users';
import { AppError } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { users } from '../../db/schema';
import { inOneRequest, type AuditActor } from '../audit/record';
import type { Actor } from '../roles/guards';
import { countAll } from '../lists/list-sql';
import { updateUserWith } from './update';
import { userListWhere, type UserListQuery } from './users';

/** The edit one bulk change means for one user as they are now, or null when it changes nothing. */
function editFor(changes: BulkUserChange['changes'], before: User): UpdateUserBody | null {
  const remove = new Set(changes.removeRoleIds ?? []);
  const roleIds = [...new Set([...before.roleIds, ...(changes.addRoleIds ?? [])])].filter(
    (roleId) => !remove.has(roleId),
  );
  const rolesChange =
    roleIds.length !== before.roleIds.length || roleIds.some((r) => !before.roleIds.includes(r));
  const statusChange = changes.status !== undefined && changes.status !== before.status;
  if (!rolesChange && !statusChange) return null;
  return {
    version: before.version,
    ...(statusChange && { status: changes.status }),
    ...(rolesChange && { roleIds }),
  };
}

/** The envelope code and message of a refusal, for one row of the answer. */
function rowError(error: unknown): { code: string; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  throw error;
}

/**
 * Applies one change to each user through the single edit's own path (`updateUserWith`): the same
 * permission, self, no-escalation and last-role-manager rules, one transaction and one audit event
 * per user (one request id on them all, so the trail shows one entry). A refused user does not stop the others; every id gets its outcome, in request order.
 */
export async function bulkUpdateUsers(
  db: PortalDb,
  actor: Actor,
  body: BulkUserChange,
  audit: AuditActor,
): Promise<BulkUserAnswer> {
  const results: BulkUserResult[] = [];
  const grouped = inOneRequest(audit);
  for (const id of [...new Set(body.ids)]) {
    try {
      const { user, changed } = await updateUserWith(
        db,
        actor,
        id,
        (before) => editFor(body.changes, before),
        grouped,
      );
      results.push({ id, ok: true, changed, user });
    } catch (error) {
      results.push({ id, ok: false, error: rowError(error) });
    }
  }
  const failed = results.filter((result) => !result.ok).length;
  return { results, succeeded: results.length - failed, failed };
}

/** Every id the list's search and filters match, in id order, at most BULK_MAX_IDS of them. */
export async function matchingUserIds(
  db: PortalDb,
  companyId: string,
  query: Pick<UserListQuery, 'search' | 'filters'>,
) {
  const where = userListWhere(companyId, query);
  const [[counted], rows] = await Promise.all([
    db.select({ n: countAll }).from(users).where(where),
    db.select({ id: users.id }).from(users).where(where).orderBy(asc(users.id)).limit(BULK_MAX_IDS),
  ]);
  const total = counted?.n ?? 0;
  return { ids: rows.map((row) => row.id), total, truncated: total > BULK_MAX_IDS };
}
