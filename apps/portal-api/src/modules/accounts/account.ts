import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { UpdateMeBody } from '@pa/contracts/accounts';
import { conflict, invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { emailChangeTokens, passwordResetTokens, users } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { hashToken, newOpaqueToken, revokeAllSignIns } from './sign-ins';

/** The email of an account, as stored (lower-cased). */
export async function emailOf(db: PortalDb, userId: string): Promise<string | null> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email ?? null;
}

export const currentPasswordNeeded = () =>
  invalidField('currentPassword', 'Enter your current password to change your email.');

/** What an email change leaves for the mail to the old address. */
export interface EmailChanged {
  userName: string;
  oldEmail: string;
  newEmail: string;
  /** The single-use undo token (only its hash is stored). */
  undoToken: string;
  otherSignInsEnded: number;
}

/**
 * A user edits their own first name, last name, phone or email (never roles or status): one transaction,
 * an audit event with what changed, nothing written when nothing changed. The caller has proven the
 * current password when the email changes (ADR 007); then, in the same transaction, an undo token
 * for the old address is stored, the account's outstanding reset links die (they may have gone to
 * either address) and every sign-in but `keepSignIn` ends.
 */
export async function updateOwnAccount(
  db: PortalDb,
  userId: string,
  body: Omit<UpdateMeBody, 'currentPassword'>,
  audit: AuditActor,
  options: { keepSignIn: string; undoTtlMs: number; passwordProven: boolean },
): Promise<EmailChanged | null> {
  const { userFirstName, userLastName, phone } = body;
  const email = body.email?.toLowerCase();
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        userFirstName: users.userFirstName,
        userLastName: users.userLastName,
        email: users.email,
        phone: users.phone,
        userName: users.userName,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!before) throw notFound('The account');
    const emailChanges = email !== undefined && email !== before.email;
    if (emailChanges) {
      // The route proves the password when it sees the email change; this covers a change it could
      // not see (the email changed in between).
      if (!options.passwordProven) throw currentPasswordNeeded();
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, email), ne(users.id, userId)));
      if (taken) throw conflict('This email is already used by another account.');
    }
    const fields = {
      userFirstName: before.userFirstName,
      userLastName: before.userLastName,
      email: before.email,
      phone: before.phone,
    };
    const after = {
      userFirstName: userFirstName ?? before.userFirstName,
      userLastName: userLastName ?? before.userLastName,
      email: email ?? before.email,
      phone: phone ?? before.phone,
    };
    const diff = changedFields(fields, after);
    if (Object.keys(diff.after).length === 0) return null;
    await tx
      .update(users)
      .set({ ...after, updatedAt: new Date(), version: sql`${users.version} + 1` })
      .where(eq(users.id, userId));
    let changed: EmailChanged | null = null;
    if (emailChanges) {
      const undoToken = newOpaqueToken();
      await tx.insert(emailChangeTokens).values({
        userId,
        tokenHash: hashToken(undoToken),
        oldEmail: before.email,
        newEmail: email,
        expiresAt: new Date(Date.now() + options.undoTtlMs),
      });
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
      const otherSignInsEnded = await revokeAllSignIns(
        tx,
        userId,
        'email changed',
        options.keepSignIn,
      );
      changed = {
        userName: before.userName,
        oldEmail: before.email,
        newEmail: email,
        undoToken,
        otherSignInsEnded,
      };
    }
    await recordAudit(tx, {
      ...audit,
      action: 'account.update',
      entityType: 'user',
      entityId: userId,
      before: diff.before,
      after: changed
        ? { ...diff.after, otherSignInsEnded: changed.otherSignInsEnded, oldAddressNotified: true }
        : diff.after,
    });
    return changed;
  });
}
