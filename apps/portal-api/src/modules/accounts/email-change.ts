import { and, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import { conflict } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { emailChangeTokens, passwordResetTokens, users } from '../../db/schema';
import { recordAudit } from '../audit/record';
import type { ClientInfo } from '../client-info';
import { hashToken, newOpaqueToken, revokeAllSignIns } from './sign-ins';

const liveToken = (token: string, now: Date) =>
  and(
    eq(emailChangeTokens.tokenHash, hashToken(token)),
    isNull(emailChangeTokens.usedAt),
    gt(emailChangeTokens.expiresAt, now),
  );

/**
 * The one answer for an address that cannot be used (ADR 020): the same status, code and message
 * whether another company's account has it or it is held for an undo, so no answer tells another
 * company that an address has an account.
 */
export const EMAIL_CANNOT_BE_USED = 'This email address cannot be used. Choose another one.';

/** Who stands in the way of an address: an account (and its company), a hold for an undo, or nobody. */
export type EmailUse = { by: 'account'; companyId: string } | { by: 'hold' } | null;

/**
 * Whether an address (lower-cased) is taken: by an account other than `exceptUserId` (any company:
 * emails are unique because sign-in takes one without a company), or held for the live undo link of
 * an email change away from it (ADR 020) by an account other than `exceptUserId`. The owner of the
 * hold may take the address back.
 */
export async function emailUse(
  tx: PortalTx,
  email: string,
  exceptUserId?: string,
): Promise<EmailUse> {
  const address = email.toLowerCase();
  const [account] = await tx
    .select({ companyId: users.companyId })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.email})`, address),
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    );
  if (account) return { by: 'account', companyId: account.companyId };
  const [hold] = await tx
    .select({ id: emailChangeTokens.id })
    .from(emailChangeTokens)
    .where(
      and(
        eq(emailChangeTokens.oldEmail, address),
        isNull(emailChangeTokens.usedAt),
        gt(emailChangeTokens.expiresAt, new Date()),
        exceptUserId ? ne(emailChangeTokens.userId, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  return hold ? { by: 'hold' } : null;
}

/**
 * 409 unless the address is free for `exceptUserId` (see `emailUse`). Only an account of
 * `ownCompanyId` (the caller's company, on administration routes) is named as such; anything else —
 * another company's account, a held address — is EMAIL_CANNOT_BE_USED.
 */
export async function assertEmailUsable(
  tx: PortalTx,
  email: string,
  options: { exceptUserId?: string | undefined; ownCompanyId?: string | undefined } = {},
) {
  const use = await emailUse(tx, email, options.exceptUserId);
  if (!use) return;
  throw conflict(emailRefusal(use, email, options.ownCompanyId));
}

/** The message refusing an address in use (see `assertEmailUsable`). */
export function emailRefusal(use: NonNullable<EmailUse>, email: string, ownCompanyId?: string) {
  return use.by === 'account' && ownCompanyId !== undefined && use.companyId === ownCompanyId
    ? `The email ${email.toLowerCase()} is already used by another user of your company.`
    : EMAIL_CANNOT_BE_USED;
}

/** What a stored email change leaves for the mail to the old address. */
export interface StoredEmailChange {
  /** The single-use undo token (only its hash is stored). */
  undoToken: string;
  /** How many sign-ins of the account were ended. */
  signInsEnded: number;
}

/**
 * What every email change does besides writing the new address, on every route (ADR 007, ADR 020),
 * inside the change's transaction: an undo token for the old address (which holds that address for
 * the undo window), the account's outstanding reset links die (they may have gone to either
 * address) and its sign-ins end — all but `keepSignIn` (the account's own change keeps the sign-in
 * that made it; an administrator's change keeps none).
 */
export async function storeEmailChange(
  tx: PortalTx,
  change: {
    userId: string;
    oldEmail: string;
    newEmail: string;
    undoTtlMs: number;
    keepSignIn?: string | undefined;
  },
): Promise<StoredEmailChange> {
  const undoToken = newOpaqueToken();
  await tx.insert(emailChangeTokens).values({
    userId: change.userId,
    tokenHash: hashToken(undoToken),
    oldEmail: change.oldEmail.toLowerCase(),
    newEmail: change.newEmail.toLowerCase(),
    expiresAt: new Date(Date.now() + change.undoTtlMs),
  });
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, change.userId), isNull(passwordResetTokens.usedAt)));
  const signInsEnded = await revokeAllSignIns(
    tx,
    change.userId,
    'email changed',
    change.keepSignIn,
  );
  return { undoToken, signInsEnded };
}

/**
 * Whether an undo token is live: checked before the route hashes the replacement password, so an
 * unknown token costs a lookup, not an argon2 hash.
 */
export async function isLiveUndoToken(db: PortalDb, token: string): Promise<boolean> {
  const rows = await db
    .select({ id: emailChangeTokens.id })
    .from(emailChangeTokens)
    .where(liveToken(token, new Date()));
  return rows.length > 0;
}

export interface UndoneEmailChange {
  userId: string;
  userName: string;
  /** The address the undo link went to: the account's again, unless `restored` is false. */
  email: string;
  /**
   * False on the defensive path: another account has the address (taken outside the rules that hold
   * it, e.g. by the admin command line), so it could not come back; the account was secured anyway.
   */
  restored: boolean;
}

/**
 * Undoes an email change with the token mailed to the old address (ADR 007). Whoever holds it
 * controls the old mailbox, so the account is theirs; whoever made the change knew the password. In
 * one transaction:
 * - the token is consumed (one atomic UPDATE: it works once, even under concurrent use);
 * - the old email comes back; while the undo window lasts no other account may take it (ADR 020),
 *   but when one did all the same (outside those rules), everything else below still happens and
 *   `restored` is false: the account is secured and its owner gets the reset link at the old address;
 * - undo links of this change and of any later change die (a later change's link went to an address
 *   the changer chose), those of earlier changes stay;
 * - outstanding reset links die (they may have gone to the changer's address);
 * - the password is replaced by `disabledPasswordHash` (a hash of a secret nobody knows), so the
 *   changer's knowledge of it is worthless; the owner chooses a new one through a reset link;
 * - every sign-in of the account ends (and with the password every device cookie, bound to it).
 * Null when the token is unknown, used or expired.
 */
export async function undoEmailChange(
  db: PortalDb,
  token: string,
  disabledPasswordHash: string,
  client: ClientInfo,
): Promise<UndoneEmailChange | null> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [consumed] = await tx
      .update(emailChangeTokens)
      .set({ usedAt: now })
      .where(liveToken(token, now))
      .returning({
        userId: emailChangeTokens.userId,
        oldEmail: emailChangeTokens.oldEmail,
        createdAt: emailChangeTokens.createdAt,
      });
    if (!consumed) return null;
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, consumed.oldEmail), ne(users.id, consumed.userId)));
    const [before] = await tx
      .select({ email: users.email, companyId: users.companyId, userName: users.userName })
      .from(users)
      .where(eq(users.id, consumed.userId));
    if (!before) return null;
    await tx
      .update(users)
      .set({
        ...(!taken && { email: consumed.oldEmail }),
        passwordHash: disabledPasswordHash,
        passwordChangedAt: now,
        updatedAt: now,
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.id, consumed.userId));
    await tx
      .update(emailChangeTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailChangeTokens.userId, consumed.userId),
          isNull(emailChangeTokens.usedAt),
          gte(emailChangeTokens.createdAt, consumed.createdAt),
        ),
      );
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(eq(passwordResetTokens.userId, consumed.userId), isNull(passwordResetTokens.usedAt)),
      );
    const signInsEnded = await revokeAllSignIns(tx, consumed.userId, 'email change undone');
    await recordAudit(tx, {
      companyId: before.companyId,
      actorId: consumed.userId,
      actorName: before.userName,
      action: 'account.email-change-undone',
      entityType: 'user',
      entityId: consumed.userId,
      before: { email: before.email },
      after: taken
        ? { email: before.email, restored: false, signInsEnded, mustReset: true }
        : { email: consumed.oldEmail, signInsEnded, mustReset: true },
      ...client,
    });
    return {
      userId: consumed.userId,
      userName: before.userName,
      email: consumed.oldEmail,
      restored: !taken,
    };
  });
}
