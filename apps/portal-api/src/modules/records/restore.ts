import { and, eq, inArray } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import type { VersionedTable } from './version-lock';

/**
 * Soft delete and restore, the shared half: a deleted record is kept (its row as stored, as jsonb, and
 * its links) for a window, then brought back under the same id. Users keep theirs in
 * `deleted_users` (modules/users/restore.ts), roles and permissions in `deleted_access_records`
 * (modules/access-restore).
 */

/** The kept row with its timestamps as dates again (jsonb holds them as ISO text). */
export function revivedRow<T>(kept: Record<string, unknown>, timestamps: readonly string[]): T {
  const row = { ...kept };
  for (const key of timestamps) {
    if (typeof row[key] === 'string') row[key] = new Date(row[key]);
  }
  return row as T;
}

/** The ids among `ids` that still exist in the company (a role deleted meanwhile is dropped). */
export async function existingIds(
  tx: PortalTx,
  table: VersionedTable,
  companyId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId), inArray(table.id, ids)));
  return rows.map((row) => String(row.id));
}
