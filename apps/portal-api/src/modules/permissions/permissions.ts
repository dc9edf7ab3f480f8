import { and, eq, sql, type SQL } from 'drizzle-orm';
import { paginate, type ListQuery, type Paginated } from '@pa/contracts/list-query';
import type {
  Permission,
  PERMISSION_SORT_FIELDS,
  UpdatePermissionBody,
} from '@pa/contracts/permissions';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { permissions, rolePermissions, roles, userPermissions } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { countAll, orderFor, pageWindow, searchAcross } from '../lists/list-sql';
import { assertSameVersion } from '../stale-version';
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

/** One page of the company's permissions: search over code, name, description and group. */
export async function listPermissions(
  db: PortalDb,
  companyId: string,
  query: PermissionListQuery,
): Promise<Paginated<Permission>> {
  const conditions: (SQL | undefined)[] = [
    eq(permissions.companyId, companyId),
    searchAcross(query.search, [
      permissions.code,
      permissions.name,
      permissions.description,
      permissions.group,
    ]),
  ];
  if (query.filters?.group !== undefined && query.filters.group !== '')
    conditions.push(eq(sql`lower(${permissions.group})`, query.filters.group.toLowerCase()));
  if (query.filters?.isSystem)
    conditions.push(eq(permissions.isSystem, query.filters.isSystem === 'true'));
  const where = and(...conditions);
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const [[counted], rows] = await Promise.all([
    db.select({ n: countAll }).from(permissions).where(where),
    db
      .select(columns)
      .from(permissions)
      .where(where)
      .orderBy(
        ...orderFor(query.sort, sortColumns, permissions.id, [{ field: '_id', order: 'desc' }]),
      )
      .limit(limit)
      .offset(offset),
  ]);
  return paginate(rows.map(toDto), counted?.n ?? 0, query.page, query.pageSize);
}

export async function getPermission(
  db: PortalTx,
  companyId: string,
  id: string,
): Promise<Permission> {
  const [row] = await db
    .select(columns)
    .from(permissions)
    .where(and(eq(permissions.id, id), eq(permissions.companyId, companyId)));
  if (!row) throw notFound('The permission');
  return toDto(row);
}

async function assertCodeFree(tx: PortalTx, companyId: string, code: string) {
  const [taken] = await tx
    .select({ id: permissions.id })
    .from(permissions)
    .where(and(eq(permissions.companyId, companyId), eq(permissions.code, code)));
  if (taken) throw conflict(`Your company already has a permission with the code ${code}.`);
}

const snapshot = (p: Permission): Record<string, unknown> => ({
  code: p.code,
  name: p.name,
  description: p.description,
  group: p.group,
  version: p.version,
});

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
    const created = await getPermission(tx, actor.companyId, row.id);
    await recordAudit(tx, {
      ...audit,
      action: 'permission.create',
      entityType: 'permission',
      entityId: row.id,
      after: snapshot(created),
    });
    return created;
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
    const [locked] = await tx
      .select({ version: permissions.version })
      .from(permissions)
      .where(and(eq(permissions.id, id), eq(permissions.companyId, actor.companyId)))
      .for('update');
    if (!locked) throw notFound('The permission');
    const before = await getPermission(tx, actor.companyId, id);
    assertSameVersion('permission', body.version, locked.version);
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
        updatedAt: new Date(),
        version: sql`${permissions.version} + 1`,
      })
      .where(and(eq(permissions.id, id), eq(permissions.companyId, actor.companyId)));
    const after = await getPermission(tx, actor.companyId, id);
    await recordAudit(tx, {
      ...audit,
      action: 'permission.update',
      entityType: 'permission',
      entityId: id,
      ...changedFields(snapshot(before), snapshot(after)),
    });
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
  await db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const before = await getPermission(tx, actor.companyId, id);
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
    await keep?.(tx);
    await tx
      .delete(permissions)
      .where(and(eq(permissions.id, id), eq(permissions.companyId, actor.companyId)));
    await recordAudit(tx, {
      ...audit,
      action: 'permission.delete',
      entityType: 'permission',
      entityId: id,
      before: snapshot(before),
    });
  });
}
