import { sql } from 'drizzle-orm';
import {
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users, roles } from './access';
import { id, createdAt, companyRef } from './common';

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
