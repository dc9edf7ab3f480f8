import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { ListQuery, Paginated } from '@pa/contracts/list-query';
import type { Role, ROLE_SORT_FIELDS, UpdateRoleBody } from '@pa/contracts/roles';
import { conflict } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { rolePermissions, roles, userRoles } from '../../db/schema';
import type { AuditActor } from '../audit/record';
import { searchAcross } from '../lists/list-sql';
import { defineRecord } from '../records/record-kind';
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
    | { isSystem?: 'true' | 'false' | undefined; permissionId?: string | undefined }
    | undefined;
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

const snapshot = (role: Role): Record<string, unknown> => ({
  name: role.name,
  description: role.description,
  permissionIds: role.permissionIds,
  version: role.version,
});

/** Roles as versioned company records (modules/records). */
export const roleRecord = defineRecord({
  kind: 'role',
  label: 'The role',
  table: roles,
  columns: roleColumns,
  sortColumns,
  defaultSort: [{ field: '_id', order: 'desc' }],
  toDtos: async (db, rows: RoleRow[]) => {
    const links = await permissionIdsOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toDto(row, links.get(row.id) ?? []));
  },
  snapshot,
});

/** One page of the company's roles: search over name and description; filters isSystem, permissionId. */
export function listRoles(
  db: PortalDb,
  companyId: string,
  query: RoleListQuery,
): Promise<Paginated<Role>> {
  const f = query.filters;
  const conditions: (SQL | undefined)[] = [
    searchAcross(query.search, [roles.name, roles.description]),
    f?.isSystem ? eq(roles.isSystem, f.isSystem === 'true') : undefined,
    f?.permissionId
      ? sql`exists (select 1 from ${rolePermissions} where ${rolePermissions.roleId} = ${roles.id} and ${rolePermissions.permissionId} = ${f.permissionId})`
      : undefined,
  ];
  return roleRecord.list(db, companyId, query, conditions);
}

/** One role of the company, or 404. */
export const getRole = roleRecord.get;

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
    if (row) await setPermissions(tx, actor.companyId, row.id, body.permissionIds);
    return roleRecord.created(tx, actor.companyId, row?.id, audit);
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
    const version = await roleRecord.lock(tx, actor.companyId, id);
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
    roleRecord.assertSameVersion(body.version, version);
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
        ...roleRecord.nextVersion(),
      })
      .where(roleRecord.where(actor.companyId, id));
    if (permissionsChange && body.permissionIds) {
      await setPermissions(tx, actor.companyId, id, body.permissionIds);
      await assertSomeoneManagesRoles(tx, actor.companyId);
    }
    const after = await getRole(tx, actor.companyId, id);
    await roleRecord.audit(tx, audit, 'update', id, { before, after });
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
  await roleRecord.remove(db, actor.companyId, id, audit, {
    refuse: async (tx, before) => {
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
    },
    ...(keep && { keep: (tx) => keep(tx) }),
  });
}
