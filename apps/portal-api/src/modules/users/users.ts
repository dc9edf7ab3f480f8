import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { ListQuery, Paginated } from '@pa/contracts/list-query';
import type { CreateUserBody, User, USER_SORT_FIELDS } from '@pa/contracts/users';
import { conflict, invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { roles, userPermissions, userRoles, users } from '../../db/schema';
import { hashPassword, passwordProblem } from '../accounts/passwords';
import { assertEmailUsable } from '../accounts/email-change';
import type { AuditActor } from '../audit/record';
import { effectivePermissionCodes } from '../auth/effective-permissions';
import { escapeLike } from '../lists/list-sql';
import { columnsOf, defineRecord } from '../records/record-kind';
import {
  assertHolds,
  codesOfPermissions,
  codesOfRoles,
  lockCompany,
  type Actor,
} from '../roles/guards';

type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type UserListQuery = ListQuery<UserSortField> & {
  filters?: { status?: User['status'][] | undefined; roleId?: string[] | undefined } | undefined;
};

// What a user answer is read from (never the password hash or the search column).
const userColumns = columnsOf(users, [
  'id',
  'userName',
  'email',
  'userFirstName',
  'userLastName',
  'phone',
  'status',
  'lastSignInAt',
  'createdAt',
  'updatedAt',
  'version',
]);
type UserRow = {
  [K in keyof typeof userColumns]: (typeof users.$inferSelect)[K extends 'id' ? 'id' : K];
};

const sortColumns = {
  _id: users.id,
  userName: users.userName,
  email: users.email,
  userFirstName: users.userFirstName,
  userLastName: users.userLastName,
  status: users.status,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
} satisfies Record<UserSortField, unknown>;

type RoleRef = User['roles'][number];

function toDto(row: UserRow, roleRefs: RoleRef[], permissionIds: string[]): User {
  return {
    _id: row.id,
    userName: row.userName,
    email: row.email,
    userFirstName: row.userFirstName,
    userLastName: row.userLastName,
    phone: row.phone,
    status: row.status,
    roleIds: roleRefs.map((role) => role._id),
    roles: roleRefs,
    permissionIds,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** Roles (id and name) and direct-permission ids of some users, one query each. */
async function linksOf(db: PortalTx, ids: string[]) {
  const roleIds = new Map<string, RoleRef[]>();
  const permissionIds = new Map<string, string[]>();
  if (ids.length === 0) return { roleIds, permissionIds };
  const [roleRows, permissionRows] = await Promise.all([
    db
      .select({ userId: userRoles.userId, id: userRoles.roleId, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, ids))
      .orderBy(userRoles.roleId),
    db
      .select({ userId: userPermissions.userId, id: userPermissions.permissionId })
      .from(userPermissions)
      .where(inArray(userPermissions.userId, ids))
      .orderBy(userPermissions.permissionId),
  ]);
  for (const row of roleRows)
    roleIds.set(row.userId, [...(roleIds.get(row.userId) ?? []), { _id: row.id, name: row.name }]);
  for (const row of permissionRows)
    permissionIds.set(row.userId, [...(permissionIds.get(row.userId) ?? []), row.id]);
  return { roleIds, permissionIds };
}

/**
 * Case-insensitive "contains" over user name, email, first and last name and phone, through the
 * stored lower-cased `search_text` column (one LIKE instead of five ILIKEs). A search spanning two
 * fields ("pat person") matches too.
 */
function searchUsers(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  return sql`${users.searchText} like lower(${`%${escapeLike(text)}%`})`;
}

/** The conditions of a list's search and filters (the company's own are added by the caller). */
function userConditions(query: Pick<UserListQuery, 'search' | 'filters'>): (SQL | undefined)[] {
  const f = query.filters;
  // Several values of one filter mean any of them.
  return [
    searchUsers(query.search),
    f?.status?.length ? inArray(users.status, f.status) : undefined,
    f?.roleId?.length
      ? sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${inArray(userRoles.roleId, f.roleId)})`
      : undefined,
  ];
}

/** The users a list shows: the company's, matching the search and filters (also "select all N"). */
export function userListWhere(
  companyId: string,
  query: Pick<UserListQuery, 'search' | 'filters'>,
): SQL | undefined {
  return and(eq(users.companyId, companyId), ...userConditions(query));
}

/** What the audit trail keeps of a user (never secrets; role ids, not the names of the moment). */
const snapshot = (user: User) => {
  const { _id, createdAt, updatedAt, lastSignInAt, roles: _roles, ...rest } = user;
  void _id;
  void createdAt;
  void updatedAt;
  void lastSignInAt;
  return rest as Record<string, unknown>;
};

/** Users as versioned company records (modules/records). */
export const userRecord = defineRecord({
  kind: 'user',
  label: 'The user',
  table: users,
  columns: userColumns,
  sortColumns,
  defaultSort: [{ field: '_id', order: 'asc' }],
  toDtos: async (db, rows: UserRow[]) => {
    const links = await linksOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      toDto(row, links.roleIds.get(row.id) ?? [], links.permissionIds.get(row.id) ?? []),
    );
  },
  snapshot,
});

/** One page of the company's users: search over names, email and phone; filters status and roleId. */
export function listUsers(
  db: PortalDb,
  companyId: string,
  query: UserListQuery,
): Promise<Paginated<User>> {
  return userRecord.list(db, companyId, query, userConditions(query));
}

/** One user of the company, or 404. */
export const getUser = userRecord.get;

/** 403 unless the caller holds every role and direct permission given (`undefined`: not given). */
export async function assertMayGive(
  tx: PortalTx,
  actor: Actor,
  roleIds: string[] | undefined,
  permissionIds: string[] | undefined,
) {
  if (roleIds)
    assertHolds(actor, await codesOfRoles(tx, actor.companyId, roleIds), 'give these roles');
  if (permissionIds) {
    const codes = await codesOfPermissions(tx, actor.companyId, permissionIds);
    assertHolds(actor, codes, 'give these permissions');
  }
}

/**
 * 404 unless `id` is a user of the caller's company; 403 when that user holds permissions the caller
 * lacks (`doing` names the act in the refusal), the rule of editing a user. The caller passes.
 */
export async function assertMayManageUser(db: PortalTx, actor: Actor, id: string, doing: string) {
  if (!(await userInCompany(db, actor.companyId, id))) throw notFound('The user');
  if (id === actor.userId) return;
  assertHolds(actor, await effectivePermissionCodes(db, id, actor.companyId), doing);
}

/** Whether `id` is a user of the company. */
async function userInCompany(db: PortalTx, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)));
  return rows.length > 0;
}

/**
 * 409 when the user name or email (unique across every company, case-insensitive) is taken, or the
 * email is held for an undo (ADR 020). An email is named as taken only by an account of `companyId`
 * (the caller's); another company's account and a held address answer EMAIL_CANNOT_BE_USED alike.
 */
export async function assertUnique(
  tx: PortalTx,
  fields: { userName?: string | undefined; email?: string | undefined },
  where: { companyId: string; exceptId?: string | undefined },
) {
  if (fields.userName) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          sql`lower(${users.userName}) = ${fields.userName.toLowerCase()}`,
          where.exceptId ? ne(users.id, where.exceptId) : undefined,
        ),
      );
    if (taken)
      throw conflict(`The user name "${fields.userName}" is already taken; choose another one.`);
  }
  if (fields.email) {
    await assertEmailUsable(tx, fields.email, {
      exceptUserId: where.exceptId,
      ownCompanyId: where.companyId,
    });
  }
}

export async function setLinks(
  tx: PortalTx,
  companyId: string,
  userId: string,
  roleIds: string[] | undefined,
  permissionIds: string[] | undefined,
) {
  if (roleIds) {
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    const ids = [...new Set(roleIds)];
    if (ids.length)
      await tx.insert(userRoles).values(ids.map((roleId) => ({ userId, roleId, companyId })));
  }
  if (permissionIds) {
    await tx.delete(userPermissions).where(eq(userPermissions.userId, userId));
    const ids = [...new Set(permissionIds)];
    if (ids.length)
      await tx
        .insert(userPermissions)
        .values(ids.map((permissionId) => ({ userId, permissionId, companyId })));
  }
}

/** What a new user is made of; `passwordHash` is already hashed. */
export type NewUser = {
  userName: string;
  email: string;
  userFirstName: string;
  userLastName: string;
  phone: string;
  status: User['status'];
  passwordHash: string;
  roleIds: string[];
  permissionIds: string[];
};

/**
 * Inserts a user inside the caller's transaction (company already locked): roles and direct
 * permissions must be ones the caller holds, user name and email unused. Audited as `user.create`.
 */
export async function insertUser(
  tx: PortalTx,
  actor: Actor,
  body: NewUser,
  audit: AuditActor,
): Promise<User> {
  await assertMayGive(tx, actor, body.roleIds, body.permissionIds);
  const email = body.email.toLowerCase();
  await assertUnique(tx, { userName: body.userName, email }, { companyId: actor.companyId });
  const [row] = await tx
    .insert(users)
    .values({
      companyId: actor.companyId,
      userName: body.userName,
      email,
      userFirstName: body.userFirstName,
      userLastName: body.userLastName,
      phone: body.phone,
      status: body.status,
      passwordHash: body.passwordHash,
    })
    .returning({ id: users.id });
  if (row) await setLinks(tx, actor.companyId, row.id, body.roleIds, body.permissionIds);
  return userRecord.created(tx, actor.companyId, row?.id, audit);
}

/** Creates a user of the caller's company; roles and direct permissions must be ones the caller holds. */
export async function createUser(
  db: PortalDb,
  actor: Actor,
  body: Required<Omit<CreateUserBody, 'phone' | 'status' | 'roleIds' | 'permissionIds'>> & {
    phone: string;
    status: User['status'];
    roleIds: string[];
    permissionIds: string[];
  },
  audit: AuditActor,
): Promise<User> {
  const problem = passwordProblem(body.password);
  if (problem) throw invalidField('password', problem);
  const { password, ...fields } = body;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    return insertUser(tx, actor, { ...fields, passwordHash }, audit);
  });
}
