import { and, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEvent, AUDIT_SORT_FIELDS } from '@pa/contracts/audit';
import { paginate, type ListQuery, type Paginated } from '@pa/contracts/list-query';
import type { PortalDb } from '../../db/client';
import { auditEvents } from '../../db/schema';
import { countAll, orderFor, pageWindow, searchAcross } from '../lists/list-sql';
import { namesForEvents } from './event-names';

type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];
export type AuditListQuery = ListQuery<AuditSortField> & {
  filters?:
    | {
        action?: string[] | undefined;
        entityType?: string[] | undefined;
        entityId?: string | undefined;
        actorId?: string[] | undefined;
        from?: string | undefined;
        to?: string | undefined;
        requestId?: string | undefined;
        group?: 'request' | undefined;
      }
    | undefined;
};

const sortColumns = {
  _id: auditEvents.id,
  createdAt: auditEvents.createdAt,
  action: auditEvents.action,
  entityType: auditEvents.entityType,
  actorName: auditEvents.actorName,
} satisfies Record<AuditSortField, unknown>;

/** A date (`2026-01-31`) as an instant: its start, or with `endOfDay` the start of the next day. */
function instant(text: string, endOfDay: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    return endOfDay ? new Date(day.getTime() + 86_400_000) : day;
  }
  return new Date(text);
}

/** One page of the company's audit trail, newest first unless sorted otherwise. */
export async function listAuditEvents(
  db: PortalDb,
  companyId: string,
  query: AuditListQuery,
): Promise<Paginated<AuditEvent>> {
  const f = query.filters ?? {};
  const conditions: (SQL | undefined)[] = [
    eq(auditEvents.companyId, companyId),
    searchAcross(query.search, [
      auditEvents.actorName,
      auditEvents.action,
      auditEvents.entityType,
      auditEvents.entityId,
    ]),
    // Several values of one filter mean any of them.
    f.action?.length ? inArray(auditEvents.action, f.action) : undefined,
    f.entityType?.length ? inArray(auditEvents.entityType, f.entityType) : undefined,
    f.entityId ? eq(auditEvents.entityId, f.entityId) : undefined,
    f.actorId?.length ? inArray(auditEvents.actorId, f.actorId) : undefined,
    f.from ? gte(auditEvents.createdAt, instant(f.from, false)) : undefined,
    f.to ? lt(auditEvents.createdAt, instant(f.to, true)) : undefined,
    f.requestId ? eq(auditEvents.requestId, f.requestId) : undefined,
  ];
  const where = and(...conditions);
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const newestFirst = [{ field: '_id' as const, order: 'desc' as const }];
  const [[counted], rows] =
    f.group === 'request'
      ? await groupedPage(db, where, query.sort, limit, offset)
      : await Promise.all([
          db.select({ n: countAll }).from(auditEvents).where(where),
          db
            .select()
            .from(auditEvents)
            .where(where)
            .orderBy(...orderFor(query.sort, sortColumns, auditEvents.id, newestFirst))
            .limit(limit)
            .offset(offset)
            .then((page) => page.map((row) => ({ ...row, members: 1 }))),
        ]);
  const named = await namesForEvents(db, companyId, rows);
  return paginate(
    rows.map((row, i) => ({
      _id: row.id,
      actorId: row.actorId,
      actorName: row.actorName,
      action: row.action,
      entityType: row.entityType,
      entityId: row.entityId,
      before: row.before ?? null,
      after: row.after ?? null,
      ip: row.ip,
      userAgent: row.userAgent,
      createdAt: row.createdAt.toISOString(),
      entityName: named[i]?.entityName ?? null,
      names: named[i]?.names ?? {},
      requestId: row.requestId,
      requestEvents: Number(row.members),
    })),
    counted?.n ?? 0,
    query.page,
    query.pageSize,
  );
}

/**
 * One page of the trail with the events of one request as one entry: each request's first
 * matching event (events recorded alone are their own group), with how many of its events match.
 * A window over the matching rows, so every filter applies before the grouping.
 */
async function groupedPage(
  db: PortalDb,
  where: SQL | undefined,
  sort: AuditListQuery['sort'],
  limit: number,
  offset: number,
) {
  const group = sql`coalesce(${auditEvents.requestId}, ${auditEvents.id})`;
  const ranked = db
    .select({
      ...getTableColumns(auditEvents),
      rank: sql<number>`row_number() over (partition by ${group} order by ${auditEvents.id})`.as(
        'rank',
      ),
      members: sql<number>`(count(*) over (partition by ${group}))::int`.as('members'),
    })
    .from(auditEvents)
    .where(where)
    .as('ranked');
  const columns = {
    _id: ranked.id,
    createdAt: ranked.createdAt,
    action: ranked.action,
    entityType: ranked.entityType,
    actorName: ranked.actorName,
  } satisfies Record<AuditSortField, unknown>;
  const first = eq(ranked.rank, 1);
  return Promise.all([
    db.select({ n: countAll }).from(ranked).where(first),
    db
      .select()
      .from(ranked)
      .where(first)
      .orderBy(...orderFor(sort, columns, ranked.id, [{ field: '_id', order: 'desc' }]))
      .limit(limit)
      .offset(offset),
  ]);
}
