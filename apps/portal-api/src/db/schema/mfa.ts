import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MFA_REQUIREMENTS } from '@pa/contracts/mfa';
import { users } from './access';
import { id, createdAt, updatedAt, companyRef, companies, cascadeRef } from './common';

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
    userId: cascadeRef('user_id', () => users.id),
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
    userId: cascadeRef('user_id', () => users.id),
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
