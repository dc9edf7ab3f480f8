import { eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { InvitationPreview } from '@pa/contracts/invitations';
import { AppError, conflict, invalidField } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { companies, invitationRoles, invitations, userRoles, users } from '../../db/schema';
import { EMAIL_CANNOT_BE_USED, emailUse } from '../accounts/email-change';
import { hashPassword, passwordProblem } from '../accounts/passwords';
import { hashToken } from '../accounts/sign-ins';
import { recordAudit } from '../audit/record';
import type { ClientInfo } from '../client-info';
import { statusOf } from './invitations';

/**
 * The invitee's side of an invitation (ADR 012): its link is looked up by the token's hash; an
 * unknown, used, expired or revoked link answers its own code so the page can say which.
 */

const REFUSALS = {
  accepted: new AppError(
    ErrorCode.INVITATION_USED,
    'This invitation was already accepted. Sign in with the account it created.',
  ),
  expired: new AppError(
    ErrorCode.INVITATION_EXPIRED,
    'This invitation has expired. Ask your administrator to send it again.',
  ),
  revoked: new AppError(
    ErrorCode.INVITATION_REVOKED,
    'This invitation was withdrawn by your administrator.',
  ),
} as const;

const UNKNOWN = () =>
  new AppError(
    ErrorCode.INVITATION_NOT_FOUND,
    'This invitation link is not valid. If it was sent again, use the newest mail.',
  );

/** The open invitation a token names (row-locked inside a transaction when `forUpdate`), or its refusal. */
async function openInvitationOf(db: PortalTx, token: string, forUpdate = false) {
  const base = db
    .select({ invitation: invitations, companyName: companies.name })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .where(eq(invitations.tokenHash, hashToken(token)));
  const [found] = await (forUpdate ? base.for('update', { of: invitations }) : base);
  if (!found) throw UNKNOWN();
  const status = statusOf(found.invitation);
  if (status !== 'pending') throw REFUSALS[status];
  return found;
}

async function userNameTaken(db: PortalTx, userName: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.userName})`, userName.toLowerCase()));
  return Boolean(row);
}

/**
 * A free user name made from an email's local part: the characters a user name allows, at least 3
 * long, with a number added while it is taken ("pat.doe", "pat.doe2", …).
 */
async function suggestUserName(db: PortalTx, email: string): Promise<string> {
  const local = email.split('@')[0] ?? '';
  let base = local.replace(/[^A-Za-z0-9._-]/g, '').replace(/^[^A-Za-z0-9]+/, '');
  base = base.slice(0, 56).toLowerCase();
  if (base.length < 3) base = `${base}user`.slice(0, 56);
  for (let n = 1; n < 100; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    if (!(await userNameTaken(db, candidate))) return candidate;
  }
  return `${base}${Date.now().toString(36)}`;
}

/** What the accept page shows: whom the invitation is for, from which company, and a user name. */
export async function previewInvitation(db: PortalDb, token: string): Promise<InvitationPreview> {
  const { invitation, companyName } = await openInvitationOf(db, token);
  return {
    email: invitation.email,
    userFirstName: invitation.userFirstName,
    userLastName: invitation.userLastName,
    companyName,
    suggestedUserName: await suggestUserName(db, invitation.email),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * Accepts an invitation: creates the active user it describes (email, names, roles) with the chosen
 * user name and password, and consumes the link, in one transaction; nothing is created when any
 * check fails. Answers the new account as sign-in needs it.
 */
export async function acceptInvitation(
  db: PortalDb,
  body: { token: string; userName?: string | undefined; password: string },
  client: ClientInfo,
) {
  // Checked before the costly hash, so a dead link never spends argon2 time.
  await openInvitationOf(db, body.token);
  const problem = passwordProblem(body.password);
  if (problem) throw invalidField('password', problem);
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const { invitation } = await openInvitationOf(tx, body.token, true);
    const userName = body.userName ?? (await suggestUserName(tx, invitation.email));
    if (await userNameTaken(tx, userName))
      throw conflict(`The user name "${userName}" is already taken; choose another one.`);
    // The link proved the mailbox, so its holder may hear that the address has an account; a held
    // address (ADR 020) is refused without a reason.
    const use = await emailUse(tx, invitation.email);
    if (use?.by === 'account')
      throw conflict(
        `An account with the email ${invitation.email} exists already. Sign in with it instead.`,
      );
    if (use) throw conflict(EMAIL_CANNOT_BE_USED);
    const [user] = await tx
      .insert(users)
      .values({
        companyId: invitation.companyId,
        userName,
        email: invitation.email,
        userFirstName: invitation.userFirstName,
        userLastName: invitation.userLastName,
        status: 'active',
        passwordHash,
      })
      .returning({
        id: users.id,
        companyId: users.companyId,
        userName: users.userName,
        passwordChangedAt: users.passwordChangedAt,
      });
    if (!user) throw new Error('user insert returned nothing');
    const roleRows = await tx
      .select({ roleId: invitationRoles.roleId })
      .from(invitationRoles)
      .where(eq(invitationRoles.invitationId, invitation.id));
    if (roleRows.length > 0) {
      await tx
        .insert(userRoles)
        .values(
          roleRows.map(({ roleId }) => ({ userId: user.id, roleId, companyId: user.companyId })),
        );
    }
    await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedUserId: user.id })
      .where(eq(invitations.id, invitation.id));
    await recordAudit(tx, {
      companyId: user.companyId,
      actorId: user.id,
      actorName: user.userName,
      action: 'invitation.accept',
      entityType: 'user',
      entityId: user.id,
      after: {
        invitationId: invitation.id,
        userName,
        email: invitation.email,
        roleIds: roleRows.map((row) => row.roleId),
      },
      ...client,
    });
    return user;
  });
}
