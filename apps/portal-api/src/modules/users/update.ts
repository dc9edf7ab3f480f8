import type { UpdateUserBody, User } from '@pa/contracts/users';
import { forbidden } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { users } from '../../db/schema';
import type { EmailChanged } from '../accounts/account';
import { storeEmailChange } from '../accounts/email-change';
import { revokeAllSignIns } from '../accounts/sign-ins';
import type { AuditActor } from '../audit/record';
import { assertSomeoneManagesRoles, lockCompany, type Actor } from '../roles/guards';
import {
  assertMayGive,
  assertMayManageUser,
  assertUnique,
  getUser,
  setLinks,
  userRecord,
} from './users';

/** Editing a user: one path for the edit form, bulk changes and their rules (modules/users/users.ts). */

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Updates a user based on the version the caller saw (stale → 409). The caller cannot change their
 * own roles, permissions, status or email (their own email changes on the account route, with the
 * password: ADR 020), cannot manage a user holding permissions they lack, and cannot give roles or
 * permissions they do not hold. Leaving the active state ends the user's sign-ins; so does an email
 * change, which also leaves an undo link for the old address (`emailChanged`, for the route to mail).
 */
export async function updateUser(
  db: PortalDb,
  actor: Actor,
  id: string,
  body: UpdateUserBody,
  audit: AuditActor,
  options: { undoTtlMs: number },
): Promise<{ user: User; emailChanged: EmailChanged | null }> {
  return updateUserWith(db, actor, id, () => body, audit, options);
}

/** The refusal of an administration route asked to change the caller's own email. */
export const OWN_EMAIL_ON_ACCOUNT_ROUTE =
  'You cannot change your own email here: change it on your account page (PATCH /api/accounts/me), which asks for your current password.';

/**
 * `updateUser` with the edit computed from the user as it is under the lock (bulk changes add or
 * remove a role relative to the current ones). `edit` returning null means "nothing to change":
 * nothing is written and `changed` is false, after the same right-to-touch checks. An edit that
 * changes the email needs `options.undoTtlMs` (the undo window of ADR 007).
 */
export async function updateUserWith(
  db: PortalDb,
  actor: Actor,
  id: string,
  edit: (before: User) => UpdateUserBody | null,
  audit: AuditActor,
  options: { undoTtlMs?: number } = {},
): Promise<{ user: User; changed: boolean; emailChanged: EmailChanged | null }> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, actor.companyId);
    const version = await userRecord.lock(tx, actor.companyId, id);
    const before = await getUser(tx, actor.companyId, id);
    const edited = edit(before);
    const body = edited ?? { version: before.version };
    const rolesChange = body.roleIds && !sameSet(body.roleIds, before.roleIds);
    const permissionsChange =
      body.permissionIds && !sameSet(body.permissionIds, before.permissionIds);
    const statusChange = body.status !== undefined && body.status !== before.status;
    const email = body.email?.toLowerCase();
    const emailChange = email !== undefined && email !== before.email;
    if (id === actor.userId && (rolesChange || permissionsChange || statusChange)) {
      throw forbidden('You cannot change your own roles, permissions or status.');
    }
    // One rule for every email change (ADR 020): one's own only with the password, on the account route.
    if (id === actor.userId && emailChange) throw forbidden(OWN_EMAIL_ON_ACCOUNT_ROUTE);
    if (id !== actor.userId) await assertMayManageUser(tx, actor, id, 'change this user');
    // Checked after the right to touch this user, so a refusal never depends on the version.
    userRecord.assertSameVersion(body.version, version);
    await assertMayGive(
      tx,
      actor,
      rolesChange ? body.roleIds : undefined,
      permissionsChange ? body.permissionIds : undefined,
    );
    if (edited === null) return { user: before, changed: false, emailChanged: null };
    await assertUnique(
      tx,
      {
        userName: body.userName !== before.userName ? body.userName : undefined,
        email: emailChange ? email : undefined,
      },
      { companyId: actor.companyId, exceptId: id },
    );
    const fields = {
      ...(body.userName !== undefined && { userName: body.userName }),
      ...(email !== undefined && { email }),
      ...(body.userFirstName !== undefined && { userFirstName: body.userFirstName }),
      ...(body.userLastName !== undefined && { userLastName: body.userLastName }),
      ...(body.phone !== undefined && { phone: body.phone }),
      ...(body.status !== undefined && { status: body.status }),
    };
    await tx
      .update(users)
      .set({ ...fields, ...userRecord.nextVersion() })
      .where(userRecord.where(actor.companyId, id));
    await setLinks(
      tx,
      actor.companyId,
      id,
      rolesChange ? body.roleIds : undefined,
      permissionsChange ? body.permissionIds : undefined,
    );
    let emailChanged: EmailChanged | null = null;
    if (emailChange) {
      if (options.undoTtlMs === undefined) throw new Error('an email change needs its undo window');
      // The old address gets its undo link and is held; every sign-in of the user ends (ADR 020).
      const stored = await storeEmailChange(tx, {
        userId: id,
        oldEmail: before.email,
        newEmail: email,
        undoTtlMs: options.undoTtlMs,
      });
      emailChanged = {
        userName: before.userName,
        oldEmail: before.email,
        newEmail: email,
        undoToken: stored.undoToken,
        otherSignInsEnded: stored.signInsEnded,
        by: 'administrator',
      };
    }
    if (statusChange && body.status !== 'active') {
      await revokeAllSignIns(tx, id, `user set ${body.status}`);
    }
    if (rolesChange || permissionsChange || statusChange) {
      await assertSomeoneManagesRoles(tx, actor.companyId);
    }
    const after = await getUser(tx, actor.companyId, id);
    await userRecord.audit(tx, audit, 'update', id, {
      before,
      after,
      ...(emailChanged && {
        alsoAfter: { signInsEnded: emailChanged.otherSignInsEnded, oldAddressNotified: true },
      }),
    });
    return { user: after, changed: true, emailChanged };
  });
}
