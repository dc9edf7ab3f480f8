import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { PortalDb, PortalTx } from '../../db/client';
import { passwordResetTokens, users } from '../../db/schema';
import { recordAudit, type AuditActor } from '../audit/record';
import type { ClientInfo } from '../client-info';
import { hashToken, newOpaqueToken, revokeAllSignIns } from './sign-ins';

/** Stores a new password hash (and bumps the row's version, as every edit of a user does). */
async function writePasswordHash(tx: PortalTx, userId: string, passwordHash: string) {
  return tx
    .update(users)
    .set({
      passwordHash,
      passwordChangedAt: new Date(),
      updatedAt: new Date(),
      version: sql`${users.version} + 1`,
    })
    .where(eq(users.id, userId))
    .returning({
      id: users.id,
      companyId: users.companyId,
      userName: users.userName,
      passwordChangedAt: users.passwordChangedAt,
    });
}

/**
 * What proving a signed-in user's current password needs: their stored hash, user name (the login
 * its failures are counted under) and when the password was last set (device tokens bind to it).
 */
export async function passwordStateOf(db: PortalDb, userId: string) {
  const [user] = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      userName: users.userName,
      passwordHash: users.passwordHash,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return user ?? null;
}

/**
 * A reset token for the active account with this email (or this id), stored hashed, `ttlMs` long;
 * null when there is no such account.
 */
export async function issueResetToken(
  db: PortalDb,
  email: string,
  ttlMs: number,
  /** The account by its id instead of by `email` (an undo that could not bring its address back). */
  userId?: string,
) {
  const [user] = await db
    .select({ id: users.id, email: users.email, status: users.status, userName: users.userName })
    .from(users)
    .where(userId ? eq(users.id, userId) : eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (!user || user.status !== 'active') return null;
  const token = newOpaqueToken();
  await db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return { user, token };
}

/**
 * Sets a new password with a reset token: consumes the token (one atomic UPDATE, so it works once
 * even under concurrent use), kills the account's other links, ends every sign-in, records the event.
 * False when the token is unknown, used or expired.
 */
export async function resetPasswordWithToken(
  db: PortalDb,
  token: string,
  passwordHash: string,
  client: ClientInfo,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [consumed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!consumed) return false;
    const [user] = await writePasswordHash(tx, consumed.userId, passwordHash);
    if (!user) return false;
    // Any other outstanding link of this account dies with this one.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    const ended = await revokeAllSignIns(tx, user.id, 'password reset');
    await recordAudit(tx, {
      companyId: user.companyId,
      actorId: user.id,
      actorName: user.userName,
      action: 'account.password-reset',
      entityType: 'user',
      entityId: user.id,
      after: { signInsEnded: ended },
      ...client,
    });
    return true;
  });
}

/**
 * A signed-in user's new password: their other sign-ins end, the current one (`keep`) stays.
 * Answers the new `password_changed_at` (device tokens bind to it).
 */
export async function changePassword(
  db: PortalDb,
  userId: string,
  passwordHash: string,
  keep: string,
  audit: AuditActor,
): Promise<Date> {
  return db.transaction(async (tx) => {
    const [user] = await writePasswordHash(tx, userId, passwordHash);
    if (!user) throw new Error('password change of a missing user');
    const ended = await revokeAllSignIns(tx, userId, 'password changed', keep);
    await recordAudit(tx, {
      ...audit,
      action: 'account.password-change',
      entityType: 'user',
      entityId: userId,
      after: { otherSignInsEnded: ended },
    });
    return user.passwordChangedAt;
  });
}
