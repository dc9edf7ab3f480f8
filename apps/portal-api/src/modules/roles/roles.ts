import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { paginate, type ListQuery, type Paginated } from '@pa/contracts/list-query';
import type { Role, ROLE_SORT_FIELDS, UpdateRoleBody } from '@pa/contracts/roles';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { rolePermissions, roles, userRoles } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { countAll, orderFor, pageWindow, searchAcross } from '../lists/list-sql';
import { assertSameVersion } from '../stale-version';
import {
  assertHolds,
  assertSomeoneManagesRoles,
  codesOfPermissions,
  lockCompany,
  type Actor,
} from './guards';

type RoleSortField = (typeof ROLE_SORT_FIELDS)[number];
export type RoleListQuery = ListQuery<RoleSortField> & {
  filters?:
    { isSystem?: 'true' | 'false' | undefined; permissionId?: string | undefined } | undefined;
};

const userCount = sql<number>`(select count(*)::int from ${userRoles} where ${userRoles.roleId} = ${roles.id})`;

const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  isSystem: roles.isSystem,
  version: roles.version,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
  userCount,
};

const sortColumns = {
  _id: roles.id,
  name: sql`lower(${roles.name})`,
  isSystem: roles.isSystem,
  userCount,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
} satisfies Record<RoleSortField, unknown>;

type RoleRow = {
  id: string;
  name: string;
  description: string;
  isSystem: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  userCount: number;
};

const toDto = (row: RoleRow, permissionIds: string[]): Role => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  permissionIds,
  isSystem: row.isSystem,
  userCount: Number(row.userCount),
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function permissionIdsOf(db: PortalTx, roleIds: string[]) {
  const byRole = new Map<string, string[]>();
  if (roleIds.length === 0) return byRole;
  const rows = await db
    .select({ roleId: rolePermissions.roleId, id: rolePermissions.permissionId })
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, roleIds))
    .orderBy(rolePermissions.permissionId);
  for (const row of rows) byRole.set(row.roleId, [...(byRole.get(row.roleId) ?? []), row.id]);
  return byRole;
}

/** One page of the company's roles: search over name and description; filters isSystem, permissionId. */
export async function listRoles(
  db: PortalDb,
  companyId: string,
  query: RoleListQuery,
): Promise<Paginated<Role>> {
  const conditions: (SQL | undefined)[] = [
    eq(roles.companyId, companyId),
    searchAcross(query.search, [roles.name, roles.description]),
  ];
  if (query.filters?.isSystem)
    conditions.push(eq(roles.isSystem, query.filters.isSystem === 'true'));
  if (query.filters?.permissionId) {
    conditions.push(
      sql`exists (select 1 from ${rolePermissions} where ${rolePermissions.roleId} = ${roles.id} and ${rolePermissions.permissionId} = ${query.filters.permissionId})`,
    );
  }
  const where = and(...conditions);
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const [[counted], rows] = await Promise.all([
    db.select({ n: countAll }).from(roles).where(where),
    db
      .select(roleColumns)
      .from(roles)
      .where(where)
      .orderBy(...orderFor(query.sort, sortColumns, roles.id, [{ field: '_id', order: 'desc' }]))
      .limit(limit)
      .offset(offset),
  ]);
  const links = await permissionIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return paginate(
    rows.map((row) => toDto(row, links.get(row.id) ?? [])),
    counted?.n ?? 0,
    query.page,
    query.pageSize,
  );
}

/** One role of the company, or 404. */
export async function getRole(db: PortalTx, companyId: string, id: string): Promise<Role> {
  const [row] = await db
    .select(roleColumns)
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.companyId, companyId)));
  if (!row) throw notFound('The role');
  return toDto(row, (await permissionIdsOf(db, [id])).get(id) ?? []);
}

async function assertNameFree(tx: PortalTx, companyId: string, name: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.companyId, companyId),
        eq(sql`lower(${roles.name})`, name.toLowerCase()),
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    );
  if (taken) throw conflict(`Your company already has a role named "${name}".`);
}

async function setPermissions(tx: PortalTx, companyId: string, roleId: string, ids: string[]) {
  await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  const unique = [...new Set(ids)];
  if (unique.length)
    await tx
      .insert(rolePermissions)
      .values(unique.map((permissionId) => ({ roleId, permissionId, companyId })));
}

const snapshot = (role: Role): Record<string, unknown> => ({
  name: role.name,
  description: role.description,
  permissionIds: role.permissionIds,
  version: role.version,
});

/** Creates a role holding only permissions the caller holds. */
export async function createRole(
  db: PortalDb,
  actor: Actor,
  body: { name: string; description: string; permissionIds: string[] },
  audit: AuditActor,
): Promise<Role> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    assertHolds(
      actor,
      await codesOfPermissions(tx, actor.companyId, body.permissionIds),
      'create a role with these permissions',
    );
    await assertNameFree(tx, actor.companyId, body.name);
    const [row] = await tx
      .insert(roles)
      .values({ companyId: actor.companyId, name: body.name, description: body.description })
      .returning({ id: roles.id });
    if (!row) throw new Error('role insert returned nothing');
    await setPermissions(tx, actor.companyId, row.id, body.permissionIds);
    const created = await getRole(tx, actor.companyId, row.id);
    await recordAudit(tx, {
      ...audit,
      action: 'role.create',
      entityType: 'role',
      entityId: row.id,
      after: snapshot(created),
    });
    return created;
  });
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Updates a role based on the version the caller saw (stale → 409). The caller must hold every
 * permission the role holds before and after; the Administrator role keeps its name and permissions.
 */
export async function updateRole(
  db: PortalDb,
  actor: Actor,
  id: string,
  body: UpdateRoleBody,
  audit: AuditActor,
): Promise<Role> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const [locked] = await tx
      .select({ version: roles.version })
      .from(roles)
      .where(and(eq(roles.id, id), eq(roles.companyId, actor.companyId)))
      .for('update');
    if (!locked) throw notFound('The role');
    const before = await getRole(tx, actor.companyId, id);
    const permissionsChange =
      body.permissionIds !== undefined && !sameSet(body.permissionIds, before.permissionIds);
    const rename = body.name !== undefined && body.name !== before.name;
    if (before.isSystem && rename) throw conflict(`The ${before.name} role cannot be renamed.`);
    if (before.isSystem && permissionsChange) {
      throw conflict(
        `The ${before.name} role always holds every permission; its permissions cannot be changed.`,
      );
    }
    assertHolds(
      actor,
      await codesOfPermissions(tx, actor.companyId, before.permissionIds),
      'change this role',
    );
    assertSameVersion('role', body.version, locked.version);
    if (permissionsChange && body.permissionIds) {
      assertHolds(
        actor,
        await codesOfPermissions(tx, actor.companyId, body.permissionIds),
        'give this role these permissions',
      );
    }
    if (rename && body.name) await assertNameFree(tx, actor.companyId, body.name, id);
    await tx
      .update(roles)
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        updatedAt: new Date(),
        version: sql`${roles.version} + 1`,
      })
      .where(and(eq(roles.id, id), eq(roles.companyId, actor.companyId)));
    if (permissionsChange && body.permissionIds) {
      await setPermissions(tx, actor.companyId, id, body.permissionIds);
      await assertSomeoneManagesRoles(tx, actor.companyId);
    }
    const after = await getRole(tx, actor.companyId, id);
    await recordAudit(tx, {
      ...audit,
      action: 'role.update',
      entityType: 'role',
      entityId: id,
      ...changedFields(snapshot(before), snapshot(after)),
    });
    return after;
  });
}

/**
 * Deletes a role that is neither the system role nor assigned to anyone. `keep` runs inside the
 * delete's transaction just before it (modules/access-restore keeps the role for an undo).
 */
export async function deleteRole(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
  keep?: (tx: PortalTx) => Promise<void>,
) {
  await db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const before = await getRole(tx, actor.companyId, id);
    if (before.isSystem)
      throw conflict(`The ${before.name} role is built in and cannot be deleted.`);
    if (before.userCount > 0) {
      throw conflict(
        `The role "${before.name}" is still assigned to ${before.userCount} user${before.userCount === 1 ? '' : 's'}. Remove it from them first.`,
      );
    }
    assertHolds(
      actor,
      await codesOfPermissions(tx, actor.companyId, before.permissionIds),
      'delete this role',
    );
    await keep?.(tx);
    await tx.delete(roles).where(and(eq(roles.id, id), eq(roles.companyId, actor.companyId)));
    await recordAudit(tx, {
      ...audit,
      action: 'role.delete',
      entityType: 'role',
      entityId: id,
      before: snapshot(before),
    });
  });
}
