import { eq, sql } from 'drizzle-orm';
import type { UpdateMeBody } from '@pa/contracts/accounts';
import { invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { users } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';
import { assertEmailUsable, storeEmailChange } from './email-change';

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
 * current password when the email changes (ADR 007); then, in the same transaction, what every
 * email change does (`storeEmailChange`: an undo token that holds the old address, reset links
 * dead, every sign-in but `keepSignIn` ended). A taken or held address is refused without saying
 * why (ADR 020).
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
      // Never says why (ADR 020): another company's account and a held address answer alike.
      await assertEmailUsable(tx, email, { exceptUserId: userId });
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
      const stored = await storeEmailChange(tx, {
        userId,
        oldEmail: before.email,
        newEmail: email,
        undoTtlMs: options.undoTtlMs,
        keepSignIn: options.keepSignIn,
      });
      changed = {
        userName: before.userName,
        oldEmail: before.email,
        newEmail: email,
        undoToken: stored.undoToken,
        otherSignInsEnded: stored.signInsEnded,
        by: 'self',
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
