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
import { v7 as uuidv7 } from 'uuid';

/**
 * The portal's tables (docs/decisions/002-accounts-and-tokens.md).
 *
 * - Primary keys are UUIDv7 (time-ordered), column `id`, exposed by the API as `_id`.
 * - Every tenant-owned row carries `company_id`; queries scope by the caller's company from the token.
 * - User names and emails are unique across ALL companies (case-insensitive), because sign-in takes a
 *   user name or email without a company: one login must name one account.
 * - `version` columns carry optimistic concurrency: an update says which version it was based on.
 */

const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => uuidv7());
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const companyRef = () =>
  uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`)],
);

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
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: uuid('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** Permissions given to a user directly, next to those of their roles. */
export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissionId: uuid('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.permissionId] }),
    index('user_permissions_permission_idx').on(t.permissionId),
  ],
);

/**
 * One sign-in (a refresh-token family): its id is the access token's `sid`. Revoking it ends the
 * sign-in everywhere at once: the portal checks it on every request, rotation refuses it.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end: rotation never extends a sign-in past this. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sign_ins_user_idx').on(t.userId, t.revokedAt)],
);

/**
 * Refresh tokens are stored as SHA-256 hashes; `used_at` makes each single use. `parent_id` is the
 * token this one replaced, so a retried rotation whose answer was lost can find what it was given (ADR 006).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => signIns.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_uq').on(t.tokenHash)],
);

/**
 * A change of a user's own email leaves a single-use link at the OLD address to undo it (ADR 007):
 * stored as a SHA-256 hash like the reset tokens, with both addresses so the undo knows what to
 * restore.
 */
export const emailChangeTokens = pgTable(
  'email_change_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    oldEmail: text('old_email').notNull(),
    newEmail: text('new_email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_change_tokens_hash_uq').on(t.tokenHash),
    index('email_change_tokens_user_idx').on(t.userId),
  ],
);

/** Every message the mailer sent (or wrote to the outbox folder). */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  transport: text('transport').notNull(),
  file: text('file'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
});

/** Who did what, when, from where; before/after hold changed fields only, never secrets. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    companyId: companyRef(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('audit_events_company_idx').on(t.companyId, t.id)],
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
