import { and, eq, inArray } from 'drizzle-orm';
import type { PortalDb } from '../../db/client';
import { permissions, roles, users } from '../../db/schema';

type Stored = {
  entityType: string;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Snapshot fields that hold ids of other records, and the table those ids name. */
const ID_LISTS = { roleIds: 'role', permissionIds: 'permission' } as const;
type Kind = 'user' | 'role' | 'permission';

const idsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string' && UUID.test(v))
    : [];

/** The name a snapshot gives its record (kept in the trail after the record is deleted). */
function snapshotName(event: Stored): string | null {
  for (const snap of [event.after, event.before]) {
    const name = snap?.name ?? snap?.userName;
    if (typeof name === 'string' && name) return name;
  }
  return null;
}

/**
 * Names for a page of events, so the trail reads "role Auditors" and "permissionIds: Read users"
 * instead of ids: the current name of each entity and of every role or permission id in the
 * before/after, read from the company's own rows (an id of a deleted record keeps no name).
 */
export async function namesForEvents(db: PortalDb, companyId: string, events: Stored[]) {
  const wanted: Record<Kind, Set<string>> = {
    user: new Set(),
    role: new Set(),
    permission: new Set(),
  };
  for (const event of events) {
    const kind = event.entityType as Kind;
    if (kind in wanted && event.entityId && UUID.test(event.entityId))
      wanted[kind].add(event.entityId);
    for (const snap of [event.before, event.after]) {
      for (const [field, target] of Object.entries(ID_LISTS))
        for (const id of idsIn(snap?.[field])) wanted[target].add(id);
    }
  }
  const lookup = async (kind: Kind): Promise<[string, string][]> => {
    const ids = [...wanted[kind]];
    if (ids.length === 0) return [];
    if (kind === 'user') {
      const rows = await db
        .select({ id: users.id, name: users.userName })
        .from(users)
        .where(and(eq(users.companyId, companyId), inArray(users.id, ids)));
      return rows.map((r) => [r.id, r.name]);
    }
    const table = kind === 'role' ? roles : permissions;
    const rows = await db
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(and(eq(table.companyId, companyId), inArray(table.id, ids)));
    return rows.map((r) => [r.id, r.name]);
  };
  const found = new Map(
    (await Promise.all((['user', 'role', 'permission'] as const).map(lookup))).flat(),
  );
  return events.map((event) => {
    const names: Record<string, string> = {};
    for (const snap of [event.before, event.after]) {
      for (const field of Object.keys(ID_LISTS))
        for (const id of idsIn(snap?.[field])) {
          const name = found.get(id);
          if (name) names[id] = name;
        }
    }
    const entityName =
      (event.entityId ? found.get(event.entityId) : undefined) ?? snapshotName(event);
    return { entityName, names };
  });
}
