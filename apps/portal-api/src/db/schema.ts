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
import { MFA_REQUIREMENTS } from '@pa/contracts/mfa';

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
    /** How the user proved who they are (RFC 8176 `amr`: pwd, otp, hwk); every token of it says so. */
    amr: text('amr')
      .array()
      .notNull()
      .default(sql`'{pwd}'::text[]`),
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
 * Every email change leaves a single-use link at the OLD address to undo it (ADR 007, ADR 020):
 * stored as a SHA-256 hash like the reset tokens, with both addresses (lower-cased) so the undo knows
 * what to restore. While a link is live its old address is held: no other account may take it.
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
    // Whether an address is held (ADR 020): looked up on every new or changed email.
    index('email_change_tokens_old_email_idx').on(t.oldEmail),
  ],
);

/**
 * An email change waiting for the NEW address to confirm it (issue #43, ADR 026): the account keeps
 * its email until the link mailed there is opened. One open request per account (a new one cancels
 * the older); the link's token is stored as a SHA-256 hash like the reset tokens. `signInId` is the
 * sign-in that asked: it alone survives the change, as when the change applied at once (ADR 007).
 */
export const emailChangeRequests = pgTable(
  'email_change_requests',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    signInId: uuid('sign_in_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_change_requests_hash_uq').on(t.tokenHash),
    index('email_change_requests_user_idx').on(t.userId),
  ],
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
    invitationId: uuid('invitation_id')
      .notNull()
      .references(() => invitations.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
  },
  (t) => [
    primaryKey({ columns: [t.invitationId, t.roleId] }),
    index('invitation_roles_role_idx').on(t.roleId),
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
    /** One id for every event one request recorded (a bulk change, an import); null when alone. */
    requestId: uuid('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_company_idx').on(t.companyId, t.id),
    index('audit_events_request_idx').on(t.companyId, t.requestId),
  ],
);

/**
 * An account's authenticator app (TOTP, RFC 6238). Until `confirmed_at` is set it is only being set
 * up and does not count. `last_step` is the newest 30-second step a code was accepted for: a code is
 * accepted once, and never one older than the last (no replay within its window).
 */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  companyId: companyRef(),
  /** The base32 secret sealed under `keys/secrets.key` (`v1:<key id>:…`, ADR 018; modules/mfa/secret-box.ts). */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: integer('last_step').notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored as SHA-256 hashes (high-entropy random codes). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
);

/** A WebAuthn credential (passkey) of an account: its public key and signature counter. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    /** The credential id, base64url, as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_uq').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);

export const CHALLENGE_PURPOSES = [
  'second-step',
  'enrol',
  'passkey-sign-in',
  'passkey-register',
] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

/**
 * A short-lived, single-use step of a sign-in or a WebAuthn ceremony: the `mfaToken` after a proven
 * password (stored as its SHA-256 hash), or the challenge a passkey must sign.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: CHALLENGE_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The WebAuthn challenge (base64url) of a passkey ceremony. */
    webauthnChallenge: text('webauthn_challenge'),
    /** The device id of the client's valid device cookie when the password was proven (ADR 011). */
    deviceId: text('device_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sign_in_challenges_hash_uq').on(t.tokenHash)],
);

/** A company's rule for who must have a second step (absent row = nobody). */
export const mfaPolicies = pgTable('mfa_policies', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  requireFor: text('require_for', { enum: MFA_REQUIREMENTS }).notNull().default('nobody'),
  /** With `permissions`: holders of any of these codes must have a second step. */
  permissionCodes: text('permission_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: updatedAt(),
});

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
