import { and, eq, getTableColumns, type AnyColumn, type SQL, type Table } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { AuditAction, AuditEntityType } from '@pa/contracts/audit';
import { paginate, type ListQuery, type Paginated, type SortOrder } from '@pa/contracts/list-query';
import { notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { countAll, orderFor, pageWindow } from '../lists/list-sql';
import { lockCompany } from '../roles/guards';
import {
  assertSameVersion,
  lockedVersion,
  nextVersion,
  ownRow,
  type VersionedTable,
} from './version-lock';

/**
 * A versioned company record (users, roles, permissions; departments next): what its definition
 * names. Everything shared — reading one or a page of them (paging, multi-sort, search and filters
 * as conditions), the version lock of an edit, the audit of each change — comes from `defineRecord`;
 * the record's own file keeps only its fields, its rules and the permissions they check.
 */
export interface RecordDefinition<Row extends { id: string }, Dto, Sort extends string> {
  /** The audit entity type and the word in messages: its events are `${kind}.create` and so on. */
  kind: AuditEntityType;
  /** Who a 404 names: 'The user'. */
  label: string;
  table: VersionedTable;
  /** The columns a read selects, each row a `Row`. */
  columns: SelectedFields;
  /** The fields a list may be sorted by (the contract's whitelist) and their SQL. */
  sortColumns: Record<Sort, AnyColumn | SQL>;
  /** The order of a list that asks for none. */
  defaultSort: { field: NoInfer<Sort>; order: SortOrder }[];
  /** The answers of some rows, their links loaded in one query each. */
  toDtos: (db: PortalTx, rows: Row[]) => Promise<Dto[]>;
  /** What the audit trail keeps of a record (never secrets, never what only the moment knows). */
  snapshot: (dto: Dto) => Record<string, unknown>;
}

/** Some columns of a table by name (what a record's reads select). */
export function columnsOf<T extends Table, K extends keyof T['_']['columns'] & string>(
  table: T,
  names: readonly K[],
): Pick<T['_']['columns'], K> {
  const all = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Pick<T['_']['columns'], K>;
}

type Verb = 'create' | 'update' | 'delete' | 'restore';

/** The steps of a record's delete that are its own (see `remove`). */
interface DeleteSteps<Dto> {
  /** Throws the rule's refusal (self, protected, still in use, more powerful than the caller). */
  refuse?: (tx: PortalTx, before: Dto) => Promise<void> | void;
  /** Runs just before the row goes: keeps it for a restore, ends what hangs on it. */
  keep?: (tx: PortalTx, before: Dto) => Promise<void>;
  /** Runs after the row went, before the audit: what must still hold (someone manages roles). */
  afterwards?: (tx: PortalTx) => Promise<void>;
}

/** What one audited change carries: the record before and/or after, and facts to add after. */
interface Change<Dto> {
  before?: Dto;
  after?: Dto;
  /** Added to the event's `after` (an update records only changed fields, plus these). */
  alsoAfter?: Record<string, unknown>;
}

type AnyDefinition<Dto> = RecordDefinition<{ id: string }, Dto, string>;

/** One record of the company as its row, or undefined. */
async function readRow<Row, Dto>(
  def: AnyDefinition<Dto>,
  db: PortalTx,
  companyId: string,
  id: string,
) {
  const rows = await db
    .select(def.columns)
    .from(def.table)
    .where(ownRow(def.table, companyId, id));
  return (rows as unknown as Row[])[0];
}

/** One page of the company's records matching `conditions` (search, filters), sorted. */
async function listPage<Row extends { id: string }, Dto, Sort extends string>(
  def: RecordDefinition<Row, Dto, Sort>,
  db: PortalDb,
  companyId: string,
  query: ListQuery<Sort>,
  conditions: (SQL | undefined)[],
): Promise<Paginated<Dto>> {
  const { table } = def;
  const where = and(eq(table.companyId, companyId), ...conditions);
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const order = orderFor(query.sort, def.sortColumns, table.id, def.defaultSort);
  const [[counted], rows] = await Promise.all([
    db.select({ n: countAll }).from(table).where(where),
    db
      .select(def.columns)
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
  ]);
  const items = await def.toDtos(db, rows as unknown as Row[]);
  return paginate(items, counted?.n ?? 0, query.page, query.pageSize);
}

/**
 * Records `${kind}.${verb}` in the trail, in the change's transaction: a create or restore keeps the
 * record after, a delete the record before, an update only the fields that changed.
 */
async function auditChange<Dto>(
  def: AnyDefinition<Dto>,
  tx: PortalTx,
  audit: AuditActor,
  verb: Verb,
  id: string,
  change: Change<Dto>,
) {
  const before = change.before && def.snapshot(change.before);
  const after = change.after && def.snapshot(change.after);
  const kept = before && after ? changedFields(before, after) : { before, after };
  await recordAudit(tx, {
    ...audit,
    action: `${def.kind}.${verb}` as AuditAction,
    entityType: def.kind,
    entityId: id,
    ...kept,
    ...(change.alsoAfter && { after: { ...kept.after, ...change.alsoAfter } }),
  });
}

/** The shared behaviour of one kind of versioned company record (see `RecordDefinition`). */
export function defineRecord<Row extends { id: string }, Dto, Sort extends string>(
  def: RecordDefinition<Row, Dto, Sort>,
) {
  const { kind, table } = def;
  const loose = def as unknown as AnyDefinition<Dto>;
  const audited = (tx: PortalTx, audit: AuditActor, verb: Verb, id: string, change: Change<Dto>) =>
    auditChange(loose, tx, audit, verb, id, change);

  async function get(db: PortalTx, companyId: string, id: string): Promise<Dto> {
    const found = await readRow<Row, Dto>(loose, db, companyId, id);
    if (!found) throw notFound(def.label);
    const [dto] = await def.toDtos(db, [found]);
    return dto as Dto;
  }

  return {
    ...def,
    get,
    list: (
      db: PortalDb,
      companyId: string,
      query: ListQuery<Sort>,
      conditions: (SQL | undefined)[],
    ) => listPage(def, db, companyId, query, conditions),

    /** Locks the record for an edit (until the transaction ends) and returns its version; 404 if none. */
    async lock(tx: PortalTx, companyId: string, id: string): Promise<number> {
      const version = await lockedVersion(tx, table, companyId, id);
      if (version === undefined) throw notFound(def.label);
      return version;
    },

    /** 409 when the version the edit is based on is not the one locked (someone saved meanwhile). */
    assertSameVersion: (seen: number, current: number) => assertSameVersion(kind, seen, current),

    /** What an edit sets besides its fields: the time and the next version. */
    nextVersion: () => nextVersion(table),

    /** The record `id` of the company, for an UPDATE or DELETE. */
    where: (companyId: string, id: string) => ownRow(table, companyId, id),

    /** Records `${kind}.${verb}` for one change (see `auditChange`). */
    audit: audited,

    /** The record just inserted (`id`), read back and audited as `${kind}.create`. */
    async created(tx: PortalTx, companyId: string, id: string | undefined, audit: AuditActor) {
      if (!id) throw new Error(`${kind} insert returned nothing`);
      const after = await get(tx, companyId, id);
      await audited(tx, audit, 'create', id, { after });
      return after;
    },

    /**
     * Deletes the record in one transaction under the company lock: 404 when it is not the
     * company's, then the record's own refusals, its keeping for a restore, the delete, what must
     * still hold, and the audit of `${kind}.delete` with the record as it was.
     */
    async remove(
      db: PortalDb,
      companyId: string,
      id: string,
      audit: AuditActor,
      steps: DeleteSteps<Dto>,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await lockCompany(tx, companyId);
        if ((await lockedVersion(tx, table, companyId, id)) === undefined) {
          throw notFound(def.label);
        }
        const before = await get(tx, companyId, id);
        await steps.refuse?.(tx, before);
        await steps.keep?.(tx, before);
        await tx.delete(table).where(ownRow(table, companyId, id));
        await steps.afterwards?.(tx);
        await audited(tx, audit, 'delete', id, { before });
      });
    },
  };
}
