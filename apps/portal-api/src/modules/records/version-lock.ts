import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { conflict } from '@pa/server-kit/errors';
import type { PortalTx } from '../../db/client';

/** What every versioned company record's table has: its id, company and edit version. */
export type VersionedTable = PgTable & {
  id: PgColumn;
  companyId: PgColumn;
  version: PgColumn;
};

/** The one record `id` of the company (every read and write of a record is scoped so). */
export const ownRow = (table: VersionedTable, companyId: string, id: string): SQL | undefined =>
  and(eq(table.id, id), eq(table.companyId, companyId));

/**
 * 409 when the record changed since the caller read it: `seen` is the version their edit is based on,
 * `current` the one locked in this transaction. Every edit form of users, roles and permissions sends
 * the version it opened, so two people editing one record never overwrite each other silently.
 */
export function assertSameVersion(what: string, seen: number, current: number): void {
  if (seen === current) return;
  throw conflict(
    `Someone else changed this ${what} since you opened it. Reload it to see their changes, then apply yours again.`,
  );
}

/** The row's version, locked (FOR UPDATE) until the transaction ends; undefined when there is none. */
export async function lockedVersion(
  tx: PortalTx,
  table: VersionedTable,
  companyId: string,
  id: string,
): Promise<number | undefined> {
  const [row] = await tx
    .select({ version: table.version })
    .from(table)
    .where(ownRow(table, companyId, id))
    .for('update');
  return row === undefined ? undefined : Number(row.version);
}

/** The columns every write of an edit sets besides its fields: the time and the next version. */
export const nextVersion = (table: VersionedTable) => ({
  updatedAt: new Date(),
  version: sql`${table.version} + 1`,
});
