import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { invalidField, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { emailChangeRequests, users } from '../../db/schema';
import { recordAudit, type AuditActor } from '../audit/record';
import type { ClientInfo } from '../client-info';
import type { EmailChanged } from './account';
import { assertEmailUsable, storeEmailChange } from './email-change';
import { hashToken, newOpaqueToken } from './sign-ins';

/**
 * An email change waits for the new address (issue #43, ADR 026): the account route stores a
 * request and mails a link to the NEW address; the change applies only when that link is opened,
 * and then does everything a change did (ADR 007, 020: the old address's notice and undo link, dead
 * reset links, the other sign-ins ended). A typo'd address therefore moves nothing.
 */

/** How long a confirmation link works. */
export const EMAIL_CHANGE_CONFIRM_TTL_MS = 24 * 60 * 60 * 1000;

const open = (now: Date) =>
  and(
    isNull(emailChangeRequests.confirmedAt),
    isNull(emailChangeRequests.cancelledAt),
    gt(emailChangeRequests.expiresAt, now),
  );

/** An open request of an account: where to and until when. */
export interface PendingEmailChange {
  newEmail: string;
  expiresAt: Date;
}

/** What the mail to the new address needs. */
export interface RequestedEmailChange extends PendingEmailChange {
  userName: string;
  token: string;
}

/**
 * Stores a request to move `userId` to `newEmail` (lower-cased), inside the caller's transaction:
 * the address must be usable now (it is checked again on confirmation), an older open request of
 * the account is cancelled, and the link's token is returned for the mail (only its hash is kept).
 */
export async function requestEmailChange(
  tx: PortalTx,
  change: { userId: string; userName: string; newEmail: string; signInId: string | null },
): Promise<RequestedEmailChange> {
  const newEmail = change.newEmail.toLowerCase();
  await assertEmailUsable(tx, newEmail, { exceptUserId: change.userId });
  const now = new Date();
  await tx
    .update(emailChangeRequests)
    .set({ cancelledAt: now })
    .where(and(eq(emailChangeRequests.userId, change.userId), open(now)));
  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_CONFIRM_TTL_MS);
  await tx.insert(emailChangeRequests).values({
    userId: change.userId,
    newEmail,
    tokenHash: hashToken(token),
    signInId: change.signInId,
    expiresAt,
  });
  return { userName: change.userName, newEmail, expiresAt, token };
}

/** The account's open request, or null. */
export async function pendingEmailChange(
  db: PortalDb,
  userId: string,
): Promise<PendingEmailChange | null> {
  const [row] = await db
    .select({ newEmail: emailChangeRequests.newEmail, expiresAt: emailChangeRequests.expiresAt })
    .from(emailChangeRequests)
    .where(and(eq(emailChangeRequests.userId, userId), open(new Date())))
    .orderBy(sql`${emailChangeRequests.createdAt} desc`)
    .limit(1);
  return row ?? null;
}

/** Cancels the account's open request (404 when there is none), audited. */
export async function cancelEmailChange(db: PortalDb, userId: string, audit: AuditActor) {
  return db.transaction(async (tx) => {
    const now = new Date();
    const cancelled = await tx
      .update(emailChangeRequests)
      .set({ cancelledAt: now })
      .where(and(eq(emailChangeRequests.userId, userId), open(now)))
      .returning({ newEmail: emailChangeRequests.newEmail });
    if (cancelled.length === 0) throw notFound('A pending email change');
    await recordAudit(tx, {
      ...audit,
      action: 'account.update',
      entityType: 'user',
      entityId: userId,
      after: { emailChangeCancelled: cancelled[0]!.newEmail },
    });
    return cancelled[0]!.newEmail;
  });
}

/**
 * A new link for the account's open request (the previous link dies with its hash) and a new
 * expiry; 404 when there is none.
 */
export async function resendEmailChange(
  db: PortalDb,
  userId: string,
): Promise<RequestedEmailChange> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const token = newOpaqueToken();
    const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_CONFIRM_TTL_MS);
    const [row] = await tx
      .update(emailChangeRequests)
      .set({ tokenHash: hashToken(token), expiresAt })
      .where(and(eq(emailChangeRequests.userId, userId), open(now)))
      .returning({ newEmail: emailChangeRequests.newEmail });
    if (!row) throw notFound('A pending email change');
    const [user] = await tx
      .select({ userName: users.userName })
      .from(users)
      .where(eq(users.id, userId));
    return { userName: user?.userName ?? '', newEmail: row.newEmail, expiresAt, token };
  });
}

/**
 * Applies the change whose link the new address received: in one transaction, the request is used
 * up (one conditional update: it works once), the address is checked again (another account may
 * have taken it since: 409 and nothing changes), the email is written and `storeEmailChange` does
 * what every change does — the undo link for the old address, dead reset links, every sign-in but
 * the one that asked ended. 400 naming `token` when unknown, used, cancelled or expired.
 */
export async function confirmEmailChange(
  db: PortalDb,
  token: string,
  undoTtlMs: number,
  client: ClientInfo,
): Promise<EmailChanged> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [request] = await tx
      .update(emailChangeRequests)
      .set({ confirmedAt: now })
      .where(and(eq(emailChangeRequests.tokenHash, hashToken(token)), open(now)))
      .returning({
        userId: emailChangeRequests.userId,
        newEmail: emailChangeRequests.newEmail,
        signInId: emailChangeRequests.signInId,
      });
    if (!request) throw invalidField('token', 'This link is invalid, used, cancelled or expired.');
    const [before] = await tx
      .select({ email: users.email, userName: users.userName, companyId: users.companyId })
      .from(users)
      .where(eq(users.id, request.userId));
    if (!before) throw notFound('The account');
    await assertEmailUsable(tx, request.newEmail, { exceptUserId: request.userId });
    await tx
      .update(users)
      .set({ email: request.newEmail, updatedAt: now, version: sql`${users.version} + 1` })
      .where(eq(users.id, request.userId));
    const stored = await storeEmailChange(tx, {
      userId: request.userId,
      oldEmail: before.email,
      newEmail: request.newEmail,
      undoTtlMs,
      keepSignIn: request.signInId ?? undefined,
    });
    await recordAudit(tx, {
      companyId: before.companyId,
      actorId: request.userId,
      actorName: before.userName,
      action: 'account.update',
      entityType: 'user',
      entityId: request.userId,
      before: { email: before.email },
      after: {
        email: request.newEmail,
        confirmedByNewAddress: true,
        otherSignInsEnded: stored.signInsEnded,
        oldAddressNotified: true,
      },
      ...client,
    });
    return {
      userName: before.userName,
      oldEmail: before.email,
      newEmail: request.newEmail,
      undoToken: stored.undoToken,
      otherSignInsEnded: stored.signInsEnded,
      by: 'self',
    };
  });
}
