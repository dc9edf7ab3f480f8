import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ListQuery, Paginated } from '@pa/contracts/list-query';
import type {
  Permission,
  PERMISSION_SORT_FIELDS,
  UpdatePermissionBody,
} from '@pa/contracts/permissions';
import { conflict } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { permissions, rolePermissions, roles, userPermissions } from '../../db/schema';
import type { AuditActor } from '../audit/record';
import { searchAcross } from '../lists/list-sql';
import { defineRecord } from '../records/record-kind';
import { lockCompany, type Actor } from '../roles/guards';

type PermissionSortField = (typeof PERMISSION_SORT_FIELDS)[number];
export type PermissionListQuery = ListQuery<PermissionSortField> & {
  filters?: { group?: string | undefined; isSystem?: 'true' | 'false' | undefined } | undefined;
};

const roleCount = sql<number>`(select count(*)::int from ${rolePermissions} where ${rolePermissions.permissionId} = ${permissions.id})`;

const columns = {
  id: permissions.id,
  code: permissions.code,
  name: permissions.name,
  description: permissions.description,
  group: permissions.group,
  isSystem: permissions.isSystem,
  version: permissions.version,
  createdAt: permissions.createdAt,
  updatedAt: permissions.updatedAt,
  roleCount,
};

const sortColumns = {
  _id: permissions.id,
  code: permissions.code,
  name: sql`lower(${permissions.name})`,
  group: sql`lower(${permissions.group})`,
  isSystem: permissions.isSystem,
  createdAt: permissions.createdAt,
  updatedAt: permissions.updatedAt,
} satisfies Record<PermissionSortField, unknown>;

type PermissionRow = {
  id: string;
  code: string;
  name: string;
  description: string;
  group: string;
  isSystem: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  roleCount: number;
};

const toDto = (row: PermissionRow): Permission => ({
  _id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  group: row.group,
  isSystem: row.isSystem,
  roleCount: Number(row.roleCount),
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const snapshot = (p: Permission): Record<string, unknown> => ({
  code: p.code,
  name: p.name,
  description: p.description,
  group: p.group,
  version: p.version,
});

/** Permissions as versioned company records (modules/records). */
export const permissionRecord = defineRecord({
  kind: 'permission',
  label: 'The permission',
  table: permissions,
  columns,
  sortColumns,
  defaultSort: [{ field: '_id', order: 'desc' }],
  toDtos: async (_db, rows: PermissionRow[]) => rows.map(toDto),
  snapshot,
});

/** One page of the company's permissions: search over code, name, description and group. */
export function listPermissions(
  db: PortalDb,
  companyId: string,
  query: PermissionListQuery,
): Promise<Paginated<Permission>> {
  const f = query.filters;
  const conditions: (SQL | undefined)[] = [
    searchAcross(query.search, [
      permissions.code,
      permissions.name,
      permissions.description,
      permissions.group,
    ]),
    f?.group ? eq(sql`lower(${permissions.group})`, f.group.toLowerCase()) : undefined,
    f?.isSystem ? eq(permissions.isSystem, f.isSystem === 'true') : undefined,
  ];
  return permissionRecord.list(db, companyId, query, conditions);
}

/** One permission of the company, or 404. */
export const getPermission = permissionRecord.get;

async function assertCodeFree(tx: PortalTx, companyId: string, code: string) {
  const [taken] = await tx
    .select({ id: permissions.id })
    .from(permissions)
    .where(and(eq(permissions.companyId, companyId), eq(permissions.code, code)));
  if (taken) throw conflict(`Your company already has a permission with the code ${code}.`);
}

/**
 * Creates a custom permission. The company's system role (Administrator) receives it at once, since
 * it holds every permission (docs/product/services.md §3) — otherwise nobody could ever grant it.
 */
export async function createPermission(
  db: PortalDb,
  actor: Actor,
  body: { code: string; name: string; description: string; group: string },
  audit: AuditActor,
): Promise<Permission> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    await assertCodeFree(tx, actor.companyId, body.code);
    const [row] = await tx
      .insert(permissions)
      .values({ companyId: actor.companyId, ...body, isSystem: false })
      .returning({ id: permissions.id });
    if (!row) throw new Error('permission insert returned nothing');
    const systemRoles = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.companyId, actor.companyId), eq(roles.isSystem, true)));
    if (systemRoles.length) {
      await tx.insert(rolePermissions).values(
        systemRoles.map((role) => ({
          roleId: role.id,
          permissionId: row.id,
          companyId: actor.companyId,
        })),
      );
    }
    return permissionRecord.created(tx, actor.companyId, row.id, audit);
  });
}

/** Updates a permission (stale version → 409); a system permission only takes a new description. */
export async function updatePermission(
  db: PortalDb,
  actor: Actor,
  id: string,
  body: UpdatePermissionBody,
  audit: AuditActor,
): Promise<Permission> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const version = await permissionRecord.lock(tx, actor.companyId, id);
    const before = await getPermission(tx, actor.companyId, id);
    permissionRecord.assertSameVersion(body.version, version);
    const changes = {
      ...(body.code !== undefined && body.code !== before.code && { code: body.code }),
      ...(body.name !== undefined && body.name !== before.name && { name: body.name }),
      ...(body.group !== undefined && body.group !== before.group && { group: body.group }),
    };
    if (before.isSystem && Object.keys(changes).length > 0) {
      throw conflict(
        `${before.code} is a system permission: its code, name and group cannot be changed (only its description).`,
      );
    }
    if (changes.code) await assertCodeFree(tx, actor.companyId, changes.code);
    await tx
      .update(permissions)
      .set({
        ...changes,
        ...(body.description !== undefined && { description: body.description }),
        ...permissionRecord.nextVersion(),
      })
      .where(permissionRecord.where(actor.companyId, id));
    const after = await getPermission(tx, actor.companyId, id);
    await permissionRecord.audit(tx, audit, 'update', id, { before, after });
    return after;
  });
}

/**
 * Deletes a custom permission. One still part of a role other than the system role, or given to a
 * user directly, answers 409: removing it would silently take it from people.
 */
export async function deletePermission(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
  /** Runs inside the delete's transaction just before it (modules/access-restore keeps it). */
  keep?: (tx: PortalTx) => Promise<void>,
) {
  await permissionRecord.remove(db, actor.companyId, id, audit, {
    refuse: async (tx, before) => {
      if (before.isSystem) {
        throw conflict(`${before.code} is a system permission and cannot be deleted.`);
      }
      const [usage] = await tx
        .select({
          roles: sql<number>`(select count(*)::int from ${rolePermissions} join ${roles} on ${roles.id} = ${rolePermissions.roleId} where ${rolePermissions.permissionId} = ${id} and not ${roles.isSystem})`,
          users: sql<number>`(select count(*)::int from ${userPermissions} where ${userPermissions.permissionId} = ${id})`,
        })
        .from(permissions)
        .where(eq(permissions.id, id));
      const inRoles = Number(usage?.roles ?? 0);
      const inUsers = Number(usage?.users ?? 0);
      if (inRoles > 0 || inUsers > 0) {
        const parts = [
          inRoles > 0 ? `${inRoles} role${inRoles === 1 ? '' : 's'}` : '',
          inUsers > 0 ? `${inUsers} user${inUsers === 1 ? '' : 's'} directly` : '',
        ].filter(Boolean);
        throw conflict(
          `The permission ${before.code} is still given to ${parts.join(' and ')}. Remove it from them first.`,
        );
      }
    },
    ...(keep && { keep: (tx) => keep(tx) }),
  });
}
