import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, companyRef, cascadeRef } from './common';

export const USER_STATUSES = ['active', 'inactive', 'locked'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    companyId: companyRef(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    userFirstName: text('user_first_name').notNull().default(''),
    userLastName: text('user_last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
    version: integer('version').notNull().default(1),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The users list's search haystack (user name, email, names, phone), lower-cased once at write:
     * one LIKE per row instead of five ILIKEs keeps a 10,000-user search fast (bench/portal.bench.ts).
     */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL =>
        sql`lower(${users.userName} || ' ' || ${users.email} || ' ' || ${users.userFirstName} || ' ' || ${users.userLastName} || ' ' || ${users.phone})`,
    ),
  },
  (t) => [
    uniqueIndex('users_user_name_lower_uq').on(sql`lower(${t.userName})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyId, t.id),
    // The users list's common sorts (name columns), so a page needs no sort of the whole company.
    index('users_company_last_first_idx').on(t.companyId, t.userLastName, t.userFirstName, t.id),
    index('users_company_user_name_idx').on(t.companyId, t.userName, t.id),
  ],
);

export const permissions = pgTable(
  'permissions',
  {
    id: id(),
    companyId: companyRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    group: text('group').notNull().default(''),
    isSystem: boolean('is_system').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('permissions_company_code_uq').on(t.companyId, t.code),
    index('permissions_company_idx').on(t.companyId, t.id),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: id(),
    companyId: companyRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isSystem: boolean('is_system').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roles_company_name_lower_uq').on(t.companyId, sql`lower(${t.name})`),
    index('roles_company_idx').on(t.companyId, t.id),
  ],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: cascadeRef('role_id', () => roles.id),
    permissionId: cascadeRef('permission_id', () => permissions.id),
    companyId: companyRef(),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.permissionId] }),
    index('role_permissions_permission_idx').on(t.permissionId),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: cascadeRef('user_id', () => users.id),
    roleId: cascadeRef('role_id', () => roles.id),
    companyId: companyRef(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** Permissions given to a user directly, next to those of their roles. */
export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: cascadeRef('user_id', () => users.id),
    permissionId: cascadeRef('permission_id', () => permissions.id),
    companyId: companyRef(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.permissionId] }),
    index('user_permissions_permission_idx').on(t.permissionId),
  ],
);

/**
 * Deleted users kept for a short while so the delete can be undone (docs/reference/bulk-import-palette.md).
 * The user row itself is really deleted (sign-in, lists, sessions and the unique names behave as
 * for any deleted user); this keeps what a restore needs: the row as it was and its links. Rows past
 * `restorable_until` are purged.
 */
export const deletedUsers = pgTable(
  'deleted_users',
  {
    /** The deleted user's id; a restore brings the user back under it. */
    id: uuid('id').primaryKey(),
    companyId: companyRef(),
    row: jsonb('row').$type<Record<string, unknown>>().notNull(),
    roleIds: jsonb('role_ids').$type<string[]>().notNull(),
    permissionIds: jsonb('permission_ids').$type<string[]>().notNull(),
    deletedBy: uuid('deleted_by'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    restorableUntil: timestamp('restorable_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('deleted_users_company_idx').on(t.companyId, t.restorableUntil)],
);

/**
 * Deleted roles and permissions kept for a short while so the delete can be undone
 * (docs/decisions/014-restore-roles-and-permissions.md). As for users, the row itself is really
 * deleted; this keeps the row as it was and its links: for a role its permissions and the users who
 * held it, for a permission the roles that had it and the users given it directly.
 */
export const deletedAccessRecords = pgTable(
  'deleted_access_records',
  {
    /** The deleted role's or permission's id; a restore brings it back under it. */
    id: uuid('id').primaryKey(),
    companyId: companyRef(),
    kind: text('kind', { enum: ['role', 'permission'] }).notNull(),
    row: jsonb('row').$type<Record<string, unknown>>().notNull(),
    roleIds: jsonb('role_ids').$type<string[]>().notNull(),
    permissionIds: jsonb('permission_ids').$type<string[]>().notNull(),
    userIds: jsonb('user_ids').$type<string[]>().notNull(),
    deletedBy: uuid('deleted_by'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    restorableUntil: timestamp('restorable_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('deleted_access_records_company_idx').on(t.companyId, t.restorableUntil)],
);

/**
 * An administrator's invitation to join their company (ADR 012): the invitee's email, names and
 * roles, and a single-use link stored as a SHA-256 hash like the reset tokens. The row stays after
 * acceptance or revocation so an old link can say which of the two it met.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    companyId: companyRef(),
    email: text('email').notNull(),
    userFirstName: text('user_first_name').notNull().default(''),
    userLastName: text('user_last_name').notNull().default(''),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept beside the id so the list still names the inviter after their account is gone. */
    invitedByName: text('invited_by_name').notNull(),
    /** The current link's hash; a resend replaces it, so the previous link dies. */
    tokenHash: text('token_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedUserId: uuid('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_uq').on(t.tokenHash),
    index('invitations_company_email_idx').on(t.companyId, sql`lower(${t.email})`),
  ],
);

/** The roles an invitee gets on accepting; a deleted role drops out of its invitations. */
export const invitationRoles = pgTable(
  'invitation_roles',
  {
    invitationId: cascadeRef('invitation_id', () => invitations.id),
    roleId: cascadeRef('role_id', () => roles.id),
    companyId: companyRef(),
  },
  (t) => [
    primaryKey({ columns: [t.invitationId, t.roleId] }),
    index('invitation_roles_role_idx').on(t.roleId),
  ],
);
