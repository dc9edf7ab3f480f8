import { and, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import { conflict } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { emailChangeTokens, passwordResetTokens, users } from '../../db/schema';
import { recordAudit } from '../audit/record';
import type { ClientInfo } from '../client-info';
import { hashToken, revokeAllSignIns } from './sign-ins';

const liveToken = (token: string, now: Date) =>
  and(
    eq(emailChangeTokens.tokenHash, hashToken(token)),
    isNull(emailChangeTokens.usedAt),
    gt(emailChangeTokens.expiresAt, now),
  );

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
  /** The address the account has again. */
  email: string;
}

/**
 * Undoes an email change with the token mailed to the old address (ADR 007). Whoever holds it
 * controls the old mailbox, so the account is theirs; whoever made the change knew the password. In
 * one transaction:
 * - the token is consumed (one atomic UPDATE: it works once, even under concurrent use);
 * - the old email comes back (409, nothing changed, when another account has taken it meanwhile);
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
    if (taken) {
      // Thrown, so the transaction rolls back and the link still works once the address is free.
      throw conflict(
        `The address ${consumed.oldEmail} is now used by another account, so it cannot come back. Ask your administrator for help.`,
      );
    }
    const [before] = await tx
      .select({ email: users.email, companyId: users.companyId, userName: users.userName })
      .from(users)
      .where(eq(users.id, consumed.userId));
    if (!before) return null;
    await tx
      .update(users)
      .set({
        email: consumed.oldEmail,
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
      after: { email: consumed.oldEmail, signInsEnded, mustReset: true },
      ...client,
    });
    return { userId: consumed.userId, userName: before.userName, email: consumed.oldEmail };
  });
}
