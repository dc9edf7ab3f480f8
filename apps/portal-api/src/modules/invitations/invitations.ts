import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Invitation, InvitationStatus } from '@pa/contracts/invitations';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb, PortalTx } from '../../db/client';
import { invitationRoles, invitations, roles, users } from '../../db/schema';
import { emailUse } from '../accounts/email-change';
import { hashToken, newOpaqueToken } from '../accounts/sign-ins';
import { recordAudit, type AuditActor } from '../audit/record';
import { assertHolds, codesOfRoles, lockCompany, type Actor } from '../roles/guards';

/**
 * Invitations of a company, as its administrators manage them (ADR 012). Every function scopes by
 * the caller's company; what an invitation gives (its roles) follows the rule of creating a user
 * with those roles: nobody hands out permissions they do not hold.
 */

type InvitationRow = typeof invitations.$inferSelect;

/** Where an invitation stands now (expiry is a matter of the clock, not of a stored state). */
export function statusOf(row: InvitationRow, now = new Date()): InvitationStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

async function rolesOf(db: PortalTx, ids: string[]) {
  const byInvitation = new Map<string, { _id: string; name: string }[]>();
  if (ids.length === 0) return byInvitation;
  const rows = await db
    .select({ invitationId: invitationRoles.invitationId, _id: roles.id, name: roles.name })
    .from(invitationRoles)
    .innerJoin(roles, eq(roles.id, invitationRoles.roleId))
    .where(inArray(invitationRoles.invitationId, ids))
    .orderBy(roles.name);
  for (const { invitationId, ...role } of rows)
    byInvitation.set(invitationId, [...(byInvitation.get(invitationId) ?? []), role]);
  return byInvitation;
}

function toDto(row: InvitationRow, roleList: { _id: string; name: string }[]): Invitation {
  return {
    _id: row.id,
    email: row.email,
    userFirstName: row.userFirstName,
    userLastName: row.userLastName,
    roles: roleList,
    invitedBy: { _id: row.invitedById, userName: row.invitedByName },
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: statusOf(row),
  };
}

async function loadOne(db: PortalTx, companyId: string, id: string, forUpdate = false) {
  const base = db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.companyId, companyId)));
  const [row] = await (forUpdate ? base.for('update') : base);
  if (!row) throw notFound('The invitation');
  return row;
}

async function dtoOf(db: PortalTx, row: InvitationRow): Promise<Invitation> {
  return toDto(row, (await rolesOf(db, [row.id])).get(row.id) ?? []);
}

/**
 * The company's open invitations (neither accepted nor revoked), newest first: pending ones and
 * expired ones, which a resend brings back.
 */
export async function listOpenInvitations(db: PortalDb, companyId: string) {
  const rows = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.companyId, companyId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .orderBy(desc(invitations.id));
  const roleLists = await rolesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toDto(row, roleLists.get(row.id) ?? []));
}

/**
 * 409 when a user of this company or an open invitation here uses the email. An address another
 * company's account has, or one held for an undo, is not refused (ADR 020): the invitation is
 * created like any other and its mail tells the recipient (`addressInUse`), so the answer says
 * nothing to this company about other companies' accounts.
 */
async function assertEmailFree(tx: PortalTx, companyId: string, email: string) {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email), eq(users.companyId, companyId)));
  if (user) throw conflict(`The email ${email} is already used by a user of your company.`);
  const [open] = await tx
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.companyId, companyId),
        eq(sql`lower(${invitations.email})`, email),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    );
  if (!open) return;
  throw conflict(
    statusOf(open) === 'pending'
      ? `${email} already has a pending invitation; resend it instead.`
      : `${email} has an expired invitation; resend it instead.`,
  );
}

export interface IssuedInvitation {
  invitation: Invitation;
  /** The link's token: mailed, never stored. */
  token: string;
  /**
   * The address has an account (any company) or is held for an undo: the mail then says the
   * recipient already has an account and carries no link, since accepting would be refused.
   */
  addressInUse: boolean;
  /** How the mail names the inviter: their first and last name when known, else their user name. */
  inviterName: string;
}

/** The inviter as a person knows them: "First Last" when the account has names, else the user name. */
async function inviterNameOf(db: PortalTx, row: InvitationRow): Promise<string> {
  if (!row.invitedById) return row.invitedByName;
  const [inviter] = await db
    .select({ first: users.userFirstName, last: users.userLastName })
    .from(users)
    .where(eq(users.id, row.invitedById));
  const name = [inviter?.first, inviter?.last].filter(Boolean).join(' ').trim();
  return name || row.invitedByName;
}

/**
 * Whether the caller may act on an invitation giving `roleIds` (resend or revoke): they must hold
 * every permission those roles give, as when inviting. 403 otherwise.
 */
async function assertMayManage(tx: PortalTx, actor: Actor, roleIds: string[], doing: string) {
  assertHolds(actor, await codesOfRoles(tx, actor.companyId, roleIds), doing);
}

/** Creates an invitation of the caller's company and its single-use token (`ttlSeconds` long). */
export async function createInvitation(
  db: PortalDb,
  actor: Actor & { userName: string },
  body: { email: string; userFirstName: string; userLastName: string; roleIds: string[] },
  ttlSeconds: number,
  audit: AuditActor,
): Promise<IssuedInvitation> {
  return db.transaction(async (tx) => {
    // The company lock serialises invitations, so two at once cannot both pass the email check.
    await lockCompany(tx, actor.companyId);
    const roleIds = [...new Set(body.roleIds)];
    assertHolds(actor, await codesOfRoles(tx, actor.companyId, roleIds), 'give these roles');
    const email = body.email.toLowerCase();
    await assertEmailFree(tx, actor.companyId, email);
    const token = newOpaqueToken();
    const [row] = await tx
      .insert(invitations)
      .values({
        companyId: actor.companyId,
        email,
        userFirstName: body.userFirstName,
        userLastName: body.userLastName,
        invitedById: actor.userId,
        invitedByName: actor.userName,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + ttlSeconds * 1000),
      })
      .returning();
    if (!row) throw new Error('invitation insert returned nothing');
    if (roleIds.length > 0) {
      await tx
        .insert(invitationRoles)
        .values(
          roleIds.map((roleId) => ({ invitationId: row.id, roleId, companyId: actor.companyId })),
        );
    }
    const invitation = await dtoOf(tx, row);
    const addressInUse = (await emailUse(tx, email)) !== null;
    await recordAudit(tx, {
      ...audit,
      action: 'invitation.create',
      entityType: 'invitation',
      entityId: row.id,
      after: {
        email,
        userFirstName: row.userFirstName,
        userLastName: row.userLastName,
        roles: invitation.roles.map((role) => role.name),
        expiresAt: invitation.expiresAt,
      },
    });
    return { invitation, token, addressInUse, inviterName: await inviterNameOf(tx, row) };
  });
}

/** 409 unless the invitation is still open (pending or expired). */
function assertOpen(row: InvitationRow, doing: string) {
  const status = statusOf(row);
  if (status === 'accepted')
    throw conflict(`This invitation was already accepted; there is nothing to ${doing}.`);
  if (status === 'revoked')
    throw conflict(`This invitation was revoked; there is nothing to ${doing}. Invite again.`);
}

/**
 * A new link for an open invitation: a new token (the previous link dies with its hash) and a new
 * expiry. The caller must hold what its roles give, as when inviting.
 */
export async function resendInvitation(
  db: PortalDb,
  actor: Actor,
  id: string,
  ttlSeconds: number,
  audit: AuditActor,
): Promise<IssuedInvitation> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const row = await loadOne(tx, actor.companyId, id, true);
    assertOpen(row, 'resend');
    const current = await dtoOf(tx, row);
    await assertMayManage(
      tx,
      actor,
      current.roles.map((role) => role._id),
      'resend an invitation giving these roles',
    );
    const token = newOpaqueToken();
    const now = new Date();
    const [updated] = await tx
      .update(invitations)
      .set({
        tokenHash: hashToken(token),
        sentAt: now,
        expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      })
      .where(eq(invitations.id, id))
      .returning();
    if (!updated) throw notFound('The invitation');
    const invitation = toDto(updated, current.roles);
    const addressInUse = (await emailUse(tx, updated.email)) !== null;
    await recordAudit(tx, {
      ...audit,
      action: 'invitation.resend',
      entityType: 'invitation',
      entityId: id,
      before: { expiresAt: current.expiresAt },
      after: { expiresAt: invitation.expiresAt },
    });
    return { invitation, token, addressInUse, inviterName: await inviterNameOf(tx, updated) };
  });
}

/**
 * Revokes an open invitation: its link then answers "revoked". The caller must hold what its roles
 * give, the rule of resending it (ADR 020).
 */
export async function revokeInvitation(db: PortalDb, actor: Actor, id: string, audit: AuditActor) {
  return db.transaction(async (tx) => {
    const row = await loadOne(tx, actor.companyId, id, true);
    assertOpen(row, 'revoke');
    const current = await dtoOf(tx, row);
    await assertMayManage(
      tx,
      actor,
      current.roles.map((role) => role._id),
      'revoke an invitation giving these roles',
    );
    const [updated] = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(eq(invitations.id, id))
      .returning();
    if (!updated) throw notFound('The invitation');
    await recordAudit(tx, {
      ...audit,
      action: 'invitation.revoke',
      entityType: 'invitation',
      entityId: id,
      before: { email: row.email, status: statusOf(row) },
    });
    return toDto(updated, current.roles);
  });
}
