import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './access';
import { id, createdAt, companyRef, cascadeRef } from './common';

/**
 * One sign-in (a refresh-token family): its id is the access token's `sid`. Revoking it ends the
 * sign-in everywhere at once: the portal checks it on every request, rotation refuses it.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: id(),
    userId: cascadeRef('user_id', () => users.id),
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
    familyId: cascadeRef('family_id', () => signIns.id),
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
    userId: cascadeRef('user_id', () => users.id),
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
    userId: cascadeRef('user_id', () => users.id),
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
    userId: cascadeRef('user_id', () => users.id),
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
