import { and, eq, inArray } from 'drizzle-orm';
import type { PortalDb } from '../../db/client';
import { companies, invitations, permissions, roles, users } from '../../db/schema';

type Stored = {
  entityType: string;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Snapshot fields that hold ids of other records (a list of them, or one), and the table those ids
 * name.
 */
const ID_FIELDS = {
  roleIds: 'role',
  permissionIds: 'permission',
  invitationId: 'invitation',
} as const;
type Kind = 'user' | 'role' | 'permission' | 'invitation' | 'company';
const KINDS = ['user', 'role', 'permission', 'invitation', 'company'] as const;

const idsIn = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (v): v is string => typeof v === 'string' && UUID.test(v),
  );

/**
 * The name a snapshot gives its record (kept in the trail after the record is deleted): a role's or
 * passkey's name, a user's user name, an invitation's email.
 */
function snapshotName(event: Stored): string | null {
  for (const snap of [event.after, event.before]) {
    const name = snap?.name ?? snap?.userName ?? snap?.email;
    if (typeof name === 'string' && name) return name;
  }
  return null;
}

/** A name from the event itself where no table names the entity (an access refusal's route). */
const ownName = (event: Stored) =>
  event.entityType === 'route' && event.entityId ? event.entityId : null;

/**
 * Names for a page of events, so the trail reads "role Auditors", "invitation ann@example.com",
 * "company Demo Company" and "permissionIds: Read users" instead of ids: the current name of each
 * entity and of every role, permission or invitation id in the before/after, read from the
 * company's own rows (an id of a deleted record keeps no name).
 */
export async function namesForEvents(db: PortalDb, companyId: string, events: Stored[]) {
  const wanted = Object.fromEntries(KINDS.map((kind) => [kind, new Set<string>()])) as Record<
    Kind,
    Set<string>
  >;
  for (const event of events) {
    const kind = event.entityType as Kind;
    if (kind in wanted && event.entityId && UUID.test(event.entityId))
      wanted[kind].add(event.entityId);
    for (const snap of [event.before, event.after]) {
      for (const [field, target] of Object.entries(ID_FIELDS))
        for (const id of idsIn(snap?.[field])) wanted[target].add(id);
    }
  }
  const lookup = async (kind: Kind): Promise<[string, string][]> => {
    const ids = [...wanted[kind]];
    if (ids.length === 0) return [];
    if (kind === 'company') {
      // only the caller's own company is named
      if (!wanted.company.has(companyId)) return [];
      const rows = await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.id, companyId));
      return rows.map((r) => [r.id, r.name]);
    }
    if (kind === 'invitation') {
      const rows = await db
        .select({ id: invitations.id, name: invitations.email })
        .from(invitations)
        .where(and(eq(invitations.companyId, companyId), inArray(invitations.id, ids)));
      return rows.map((r) => [r.id, r.name]);
    }
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
  const found = new Map((await Promise.all(KINDS.map(lookup))).flat());
  return events.map((event) => {
    const names: Record<string, string> = {};
    for (const snap of [event.before, event.after]) {
      for (const field of Object.keys(ID_FIELDS))
        for (const id of idsIn(snap?.[field])) {
          const name = found.get(id);
          if (name) names[id] = name;
        }
    }
    const entityName =
      (event.entityId ? found.get(event.entityId) : undefined) ??
      snapshotName(event) ??
      ownName(event);
    return { entityName, names };
  });
}
