import { eq, sql } from 'drizzle-orm';
import type { UpdateMeBody } from '@pa/contracts/accounts';
import { invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { users } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { requestEmailChange, type RequestedEmailChange } from './email-change-requests';

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
  /** Who changed it: the account itself (account route) or an administrator of its company. */
  by: 'self' | 'administrator';
}

/**
 * A user edits their own first name, last name, phone or email (never roles or status): one transaction,
 * an audit event with what changed, nothing written when nothing changed. The caller has proven the
 * current password when the email changes (ADR 007). The email itself does not change here: a
 * request waits for the new address to confirm it (`requestEmailChange`, ADR 026), which is
 * returned for the mail. A taken or held address is refused without saying why (ADR 020).
 */
export async function updateOwnAccount(
  db: PortalDb,
  userId: string,
  body: Omit<UpdateMeBody, 'currentPassword'>,
  audit: AuditActor,
  options: { keepSignIn: string; passwordProven: boolean },
): Promise<RequestedEmailChange | null> {
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
    if (emailChanges && !options.passwordProven) {
      // The route proves the password when it sees the email change; this covers a change it could
      // not see (the email changed in between).
      throw currentPasswordNeeded();
    }
    const fields = {
      userFirstName: before.userFirstName,
      userLastName: before.userLastName,
      phone: before.phone,
    };
    const after = {
      userFirstName: userFirstName ?? before.userFirstName,
      userLastName: userLastName ?? before.userLastName,
      phone: phone ?? before.phone,
    };
    const diff = changedFields(fields, after);
    if (Object.keys(diff.after).length === 0 && !emailChanges) return null;
    // Never says why (ADR 020): another company's account and a held address answer alike.
    const requested = emailChanges
      ? await requestEmailChange(tx, {
          userId,
          userName: before.userName,
          newEmail: email,
          signInId: options.keepSignIn,
        })
      : null;
    if (Object.keys(diff.after).length > 0)
      await tx
        .update(users)
        .set({ ...after, updatedAt: new Date(), version: sql`${users.version} + 1` })
        .where(eq(users.id, userId));
    await recordAudit(tx, {
      ...audit,
      action: 'account.update',
      entityType: 'user',
      entityId: userId,
      before: diff.before,
      after: requested ? { ...diff.after, emailChangeRequested: requested.newEmail } : diff.after,
    });
    return requested;
  });
}
