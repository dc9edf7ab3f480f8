import { and, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { paginate, type ListQuery, type Paginated } from '@pa/contracts/list-query';
import type { CreateUserBody, UpdateUserBody, User, USER_SORT_FIELDS } from '@pa/contracts/users';
import { conflict, forbidden, invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { deletedUsers, roles, userPermissions, userRoles, users } from '../../db/schema';
import { hashPassword, passwordProblem } from '../accounts/passwords';
import type { EmailChanged } from '../accounts/account';
import { assertEmailUsable, storeEmailChange } from '../accounts/email-change';
import { revokeAllSignIns } from '../accounts/sign-ins';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { countAll, escapeLike, orderFor, pageWindow } from '../lists/list-sql';
import { assertSameVersion } from '../stale-version';
import { effectivePermissionCodes } from '../auth/effective-permissions';
import {
  assertHolds,
  assertSomeoneManagesRoles,
  codesOfPermissions,
  codesOfRoles,
  lockCompany,
  type Actor,
} from '../roles/guards';

type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type UserListQuery = ListQuery<UserSortField> & {
  filters?: { status?: User['status'][] | undefined; roleId?: string[] | undefined } | undefined;
};

const userColumns = {
  id: users.id,
  userName: users.userName,
  email: users.email,
  userFirstName: users.userFirstName,
  userLastName: users.userLastName,
  phone: users.phone,
  status: users.status,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  version: users.version,
};
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

/** The users a list shows: the company's, matching the search and filters (also "select all N"). */
export function userListWhere(
  companyId: string,
  query: Pick<UserListQuery, 'search' | 'filters'>,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    eq(users.companyId, companyId),
    searchUsers(query.search),
  ];
  // Several values of one filter mean any of them.
  if (query.filters?.status?.length) conditions.push(inArray(users.status, query.filters.status));
  if (query.filters?.roleId?.length) {
    conditions.push(
      sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${inArray(userRoles.roleId, query.filters.roleId)})`,
    );
  }
  return and(...conditions);
}

/** One page of the company's users: search over names, email and phone; filters status and roleId. */
export async function listUsers(
  db: PortalDb,
  companyId: string,
  query: UserListQuery,
): Promise<Paginated<User>> {
  const where = userListWhere(companyId, query);
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const [[counted], rows] = await Promise.all([
    db.select({ n: countAll }).from(users).where(where),
    db
      .select(userColumns)
      .from(users)
      .where(where)
      .orderBy(...orderFor(query.sort, sortColumns, users.id, [{ field: '_id', order: 'asc' }]))
      .limit(limit)
      .offset(offset),
  ]);
  const links = await linksOf(
    db,
    rows.map((row) => row.id),
  );
  return paginate(
    rows.map((row) =>
      toDto(row, links.roleIds.get(row.id) ?? [], links.permissionIds.get(row.id) ?? []),
    ),
    counted?.n ?? 0,
    query.page,
    query.pageSize,
  );
}

export async function loadRow(db: PortalTx, companyId: string, id: string, forUpdate = false) {
  const base = db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)));
  const [row] = await (forUpdate ? base.for('update') : base);
  return row;
}

/** Whether `id` is a user of the company. */
export async function userInCompany(db: PortalTx, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)));
  return rows.length > 0;
}

/** One user of the company, or 404. */
export async function getUser(db: PortalTx, companyId: string, id: string): Promise<User> {
  const row = await loadRow(db, companyId, id);
  if (!row) throw notFound('The user');
  const links = await linksOf(db, [id]);
  return toDto(row, links.roleIds.get(id) ?? [], links.permissionIds.get(id) ?? []);
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

/** What the audit trail keeps of a user (never secrets; role ids, not the names of the moment). */
export const snapshot = (user: User) => {
  const { _id, createdAt, updatedAt, lastSignInAt, roles: _roles, ...rest } = user;
  void _id;
  void createdAt;
  void updatedAt;
  void lastSignInAt;
  return rest as Record<string, unknown>;
};

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
  assertHolds(actor, await codesOfRoles(tx, actor.companyId, body.roleIds), 'give these roles');
  assertHolds(
    actor,
    await codesOfPermissions(tx, actor.companyId, body.permissionIds),
    'give these permissions',
  );
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
  if (!row) throw new Error('user insert returned nothing');
  await setLinks(tx, actor.companyId, row.id, body.roleIds, body.permissionIds);
  const created = await getUser(tx, actor.companyId, row.id);
  await recordAudit(tx, {
    ...audit,
    action: 'user.create',
    entityType: 'user',
    entityId: row.id,
    after: snapshot(created),
  });
  return created;
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

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Updates a user based on the version the caller saw (stale → 409). The caller cannot change their
 * own roles, permissions, status or email (their own email changes on the account route, with the
 * password: ADR 020), cannot manage a user holding permissions they lack, and cannot give roles or
 * permissions they do not hold. Leaving the active state ends the user's sign-ins; so does an email
 * change, which also leaves an undo link for the old address (`emailChanged`, for the route to mail).
 */
export async function updateUser(
  db: PortalDb,
  actor: Actor,
  id: string,
  body: UpdateUserBody,
  audit: AuditActor,
  options: { undoTtlMs: number },
): Promise<{ user: User; emailChanged: EmailChanged | null }> {
  return updateUserWith(db, actor, id, () => body, audit, options);
}

/** The refusal of an administration route asked to change the caller's own email. */
export const OWN_EMAIL_ON_ACCOUNT_ROUTE =
  'You cannot change your own email here: change it on your account page (PATCH /api/accounts/me), which asks for your current password.';

/**
 * `updateUser` with the edit computed from the user as it is under the lock (bulk changes add or
 * remove a role relative to the current ones). `edit` returning null means "nothing to change":
 * nothing is written and `changed` is false, after the same right-to-touch checks. An edit that
 * changes the email needs `options.undoTtlMs` (the undo window of ADR 007).
 */
export async function updateUserWith(
  db: PortalDb,
  actor: Actor,
  id: string,
  edit: (before: User) => UpdateUserBody | null,
  audit: AuditActor,
  options: { undoTtlMs?: number } = {},
): Promise<{ user: User; changed: boolean; emailChanged: EmailChanged | null }> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const row = await loadRow(tx, actor.companyId, id, true);
    if (!row) throw notFound('The user');
    const before = await getUser(tx, actor.companyId, id);
    const edited = edit(before);
    const body = edited ?? { version: before.version };
    const rolesChange = body.roleIds && !sameSet(body.roleIds, before.roleIds);
    const permissionsChange =
      body.permissionIds && !sameSet(body.permissionIds, before.permissionIds);
    const statusChange = body.status !== undefined && body.status !== before.status;
    const email = body.email?.toLowerCase();
    const emailChange = email !== undefined && email !== before.email;
    if (id === actor.userId && (rolesChange || permissionsChange || statusChange)) {
      throw forbidden('You cannot change your own roles, permissions or status.');
    }
    // One rule for every email change (ADR 020): one's own only with the password, on the account route.
    if (id === actor.userId && emailChange) throw forbidden(OWN_EMAIL_ON_ACCOUNT_ROUTE);
    if (id !== actor.userId) {
      assertHolds(
        actor,
        await effectivePermissionCodes(tx, id, actor.companyId),
        'change this user',
      );
    }
    // Checked after the right to touch this user, so a refusal never depends on the version.
    assertSameVersion('user', body.version, row.version);
    if (rolesChange && body.roleIds)
      assertHolds(actor, await codesOfRoles(tx, actor.companyId, body.roleIds), 'give these roles');
    if (permissionsChange && body.permissionIds)
      assertHolds(
        actor,
        await codesOfPermissions(tx, actor.companyId, body.permissionIds),
        'give these permissions',
      );
    if (edited === null) return { user: before, changed: false, emailChanged: null };
    await assertUnique(
      tx,
      {
        userName: body.userName !== before.userName ? body.userName : undefined,
        email: emailChange ? email : undefined,
      },
      { companyId: actor.companyId, exceptId: id },
    );
    const fields = {
      ...(body.userName !== undefined && { userName: body.userName }),
      ...(email !== undefined && { email }),
      ...(body.userFirstName !== undefined && { userFirstName: body.userFirstName }),
      ...(body.userLastName !== undefined && { userLastName: body.userLastName }),
      ...(body.phone !== undefined && { phone: body.phone }),
      ...(body.status !== undefined && { status: body.status }),
    };
    await tx
      .update(users)
      .set({ ...fields, updatedAt: new Date(), version: sql`${users.version} + 1` })
      .where(and(eq(users.id, id), eq(users.companyId, actor.companyId)));
    await setLinks(
      tx,
      actor.companyId,
      id,
      rolesChange ? body.roleIds : undefined,
      permissionsChange ? body.permissionIds : undefined,
    );
    let emailChanged: EmailChanged | null = null;
    if (emailChange) {
      if (options.undoTtlMs === undefined) throw new Error('an email change needs its undo window');
      // The old address gets its undo link and is held; every sign-in of the user ends (ADR 020).
      const stored = await storeEmailChange(tx, {
        userId: id,
        oldEmail: before.email,
        newEmail: email,
        undoTtlMs: options.undoTtlMs,
      });
      emailChanged = {
        userName: before.userName,
        oldEmail: before.email,
        newEmail: email,
        undoToken: stored.undoToken,
        otherSignInsEnded: stored.signInsEnded,
        by: 'administrator',
      };
    }
    if (statusChange && body.status !== 'active') {
      await revokeAllSignIns(tx, id, `user set ${body.status}`);
    }
    if (rolesChange || permissionsChange || statusChange) {
      await assertSomeoneManagesRoles(tx, actor.companyId);
    }
    const after = await getUser(tx, actor.companyId, id);
    const diff = changedFields(snapshot(before), snapshot(after));
    await recordAudit(tx, {
      ...audit,
      action: 'user.update',
      entityType: 'user',
      entityId: id,
      ...diff,
      ...(emailChanged && {
        after: {
          ...diff.after,
          signInsEnded: emailChanged.otherSignInsEnded,
          oldAddressNotified: true,
        },
      }),
    });
    return { user: after, changed: true, emailChanged };
  });
}

/**
 * Keeps what a restore needs of a user about to be deleted (the row as stored, its links) until
 * `restorableUntil`, and purges the company's kept users whose time is up.
 */
async function keepForRestore(
  tx: PortalTx,
  companyId: string,
  before: User,
  deletedBy: string,
  restorableUntil: Date,
) {
  await tx
    .delete(deletedUsers)
    .where(
      and(eq(deletedUsers.companyId, companyId), lt(deletedUsers.restorableUntil, new Date())),
    );
  const [stored] = await tx.select().from(users).where(eq(users.id, before._id));
  if (!stored) return;
  const { searchText, ...row } = stored;
  void searchText;
  await tx
    .insert(deletedUsers)
    .values({
      id: before._id,
      companyId,
      row,
      roleIds: before.roleIds,
      permissionIds: before.permissionIds,
      deletedBy,
      restorableUntil,
    })
    .onConflictDoUpdate({
      target: deletedUsers.id,
      set: { row, roleIds: before.roleIds, permissionIds: before.permissionIds, restorableUntil },
    });
}

/**
 * Deletes a user of the company (never yourself, never one more powerful than you). The user can be
 * restored for `restoreWindowMs` (see modules/users/restore.ts); returns until when.
 */
export async function deleteUser(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
  restoreWindowMs = 0,
): Promise<{ restorableUntil: Date }> {
  const restorableUntil = new Date(Date.now() + restoreWindowMs);
  await db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const row = await loadRow(tx, actor.companyId, id, true);
    if (!row) throw notFound('The user');
    if (id === actor.userId) {
      throw conflict('You cannot delete your own account. Ask another administrator to do it.');
    }
    assertHolds(actor, await effectivePermissionCodes(tx, id, actor.companyId), 'delete this user');
    const before = await getUser(tx, actor.companyId, id);
    await revokeAllSignIns(tx, id, 'user deleted');
    if (restoreWindowMs > 0)
      await keepForRestore(tx, actor.companyId, before, actor.userId, restorableUntil);
    await tx.delete(users).where(and(eq(users.id, id), eq(users.companyId, actor.companyId)));
    await assertSomeoneManagesRoles(tx, actor.companyId);
    await recordAudit(tx, {
      ...audit,
      action: 'user.delete',
      entityType: 'user',
      entityId: id,
      before: snapshot(before),
    });
  });
  return { restorableUntil };
}
