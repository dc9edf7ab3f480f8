import fs from 'node:fs';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  emailChangeRequests,
  emailChangeTokens,
  invitations,
  mailOutbox,
  passwordResetTokens,
  users,
} from '../src/db/schema';
import { buildTestApp, DATABASES, eventually, type TestApp, type TestCompany } from './helper';

/**
 * ADR 020: one rule for every email change, an address held for its undo window, and no answer that
 * tells another company an address has an account.
 */

const CHANGED = 'The email address of your Power Analyzer account was changed';
const CONFIRM = 'Confirm the new email address of your Power Analyzer account';
const CANNOT = 'This email address cannot be used. Choose another one.';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(DATABASES)('email change rules on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let other: TestCompany;
  let otherAdmin: { authorization: string };
  let counter = 0;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    other = await t.createCompany('Elsewhere Inc');
    otherAdmin = await t.authHeader(other.adminId);
  });
  afterAll(() => t?.close());

  const fresh = (tag: string) => `${tag}-${++counter}-${Date.now().toString(36)}@rules.test`;

  /** The newest mail to `to` (with `subject`), once it is written. */
  const mailTo = (to: string, subject?: string) =>
    eventually(async () => {
      const [row] = await t.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.to, to.toLowerCase()),
            subject ? eq(mailOutbox.subject, subject) : undefined,
          ),
        )
        .orderBy(desc(mailOutbox.createdAt));
      return row;
    });
  /** The token of a mailed `/auth/<page>` link, from the outbox file (the stored text redacts it). */
  const linkToken = (mail: { file: string | null }, page: string) => {
    const token = new RegExp(`/auth/${page}\\?token=([\\w-]+)`).exec(
      fs.readFileSync(mail.file ?? '', 'utf8'),
    )?.[1];
    if (!token) throw new Error(`no ${page} link in ${mail.file}`);
    return token;
  };
  const versionOf = async (id: string) =>
    (await t.db.select({ v: users.version }).from(users).where(eq(users.id, id)))[0]!.v;
  const emailOf = async (id: string) =>
    (await t.db.select({ e: users.email }).from(users).where(eq(users.id, id)))[0]!.e;
  const patchUser = async (id: string, email: string, headers = admin) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers,
      payload: { version: await versionOf(id), email },
    });
  const createUser = (email: string, headers = admin) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: {
        userName: `made-${++counter}-${Date.now().toString(36)}`,
        email,
        userFirstName: 'Made',
        userLastName: 'Here',
        password: 'a long enough passphrase',
      },
    });
  const changeOwn = (headers: { authorization: string }, email: string, currentPassword: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/accounts/me',
      headers,
      payload: { email, currentPassword },
    });
  const undo = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/accounts/undo-email-change', payload: { token } });
  const verify = (token: string) =>
    t.app.inject({ url: '/api/accounts/verify', headers: bearer(token) });
  const refusal = (answer: {
    statusCode: number;
    json: () => { code: string; message: string };
  }) => ({
    status: answer.statusCode,
    code: answer.json().code,
    message: answer.json().message,
  });

  const confirm = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/accounts/confirm-email-change', payload: { token } });
  /** The token of the newest confirmation link mailed to `to` (ADR 024). */
  const confirmToken = async (to: string) =>
    linkToken(await mailTo(to, CONFIRM), 'confirm-email-change');

  /** An own email change, asked and confirmed from the new address: the confirmation's status. */
  const changeOwnConfirmed = async (
    headers: { authorization: string },
    email: string,
    currentPassword: string,
  ) => {
    const asked = await changeOwn(headers, email, currentPassword);
    if (asked.statusCode !== 200) return asked.statusCode;
    return (await confirm(await confirmToken(email))).statusCode;
  };

  /** A Demo Company user who moved from their address to another: the old one is now held. */
  const movedAway = async () => {
    const user = await t.createUser();
    const to = fresh('moved');
    const moved = await changeOwn(await t.authHeader(user.id), to, user.password);
    expect(moved.statusCode).toBe(200);
    // The change applies when the new address confirms it (ADR 024).
    expect((await confirm(await confirmToken(to))).statusCode).toBe(200);
    const notice = await mailTo(user.email, CHANGED);
    return { ...user, undoToken: linkToken(notice, 'undo-email-change') };
  };

  describe('issue 43: the new address confirms the change (ADR 024)', () => {
    const pending = (headers: { authorization: string }) =>
      t.app.inject({ url: '/api/accounts/me/email-change', headers });

    it('keeps the old email until the link mailed to the new address is opened, then does what a change does', async () => {
      const user = await t.createUser();
      const asking = await t.tokenFor(user.id);
      const other = await t.tokenFor(user.id);
      const headers = bearer(asking.accessToken);
      const forgot = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: user.email },
      });
      expect(forgot.statusCode).toBe(200);
      await mailTo(user.email, 'Reset your Power Analyzer password');
      const to = fresh('Typo');

      const asked = await changeOwn(headers, to, user.password);
      expect(asked.statusCode).toBe(200);
      expect(asked.json().data.email).toBe(user.email);
      expect(asked.json().message).toContain(`open the link we sent there within 24 hours`);
      expect(await emailOf(user.id)).toBe(user.email);
      expect((await pending(headers)).json().data).toEqual({
        pending: { newEmail: to.toLowerCase(), expiresAt: expect.any(String) },
      });
      const mail = await mailTo(to, CONFIRM);
      expect(mail.text).toContain('/auth/confirm-email-change?token=[redacted]');
      expect(mail.text).toContain('within 1 day');
      // Nothing else happened yet: no hold on the old address, no notice, every sign-in live,
      // the reset link still works for the owner of the old mailbox.
      expect(
        await t.db.select().from(emailChangeTokens).where(eq(emailChangeTokens.userId, user.id)),
      ).toEqual([]);
      expect(
        await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.subject, CHANGED))),
      ).toEqual([]);
      expect((await verify(other.accessToken)).statusCode).toBe(200);
      // Only the hash of the link is stored.
      const [stored] = await t.db
        .select()
        .from(emailChangeRequests)
        .where(eq(emailChangeRequests.userId, user.id));
      const token = linkToken(mail, 'confirm-email-change');
      expect(JSON.stringify(stored)).not.toContain(token);

      const done = await confirm(token);
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toEqual({ email: to.toLowerCase() });
      expect(await emailOf(user.id)).toBe(to.toLowerCase());
      // As every change (ADR 007, 020): notice and undo link to the old address, reset links
      // dead, every other sign-in ended, the one that asked kept.
      const notice = await mailTo(user.email, CHANGED);
      expect(linkToken(notice, 'undo-email-change')).toMatch(/^[\w-]{40,}$/);
      expect((await verify(other.accessToken)).statusCode).toBe(401);
      expect((await verify(asking.accessToken)).statusCode).toBe(200);
      const liveResets = await t.db
        .select()
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
      expect(liveResets).toEqual([]);
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, 'account.update')))
        .orderBy(desc(auditEvents.id))
        .limit(1);
      expect(event).toMatchObject({
        actorId: user.id,
        before: { email: user.email },
        after: { email: to.toLowerCase(), confirmedByNewAddress: true, otherSignInsEnded: 1 },
      });
      // Single use; nothing pending any more.
      const again = await confirm(token);
      expect(again.statusCode).toBe(400);
      expect(again.json().errors).toEqual([expect.objectContaining({ field: 'token' })]);
      expect((await pending(headers)).json().data).toEqual({ pending: null });
    });

    it('cancels, resends (the previous link dies) and a newer request replaces an older one', async () => {
      const user = await t.createUser();
      const headers = await t.authHeader(user.id);
      const first = fresh('first');
      await changeOwn(headers, first, user.password);
      const firstToken = await confirmToken(first);
      const second = fresh('second');
      await changeOwn(headers, second, user.password);
      const secondToken = await confirmToken(second);
      expect((await confirm(firstToken)).statusCode).toBe(400);
      expect((await pending(headers)).json().data.pending.newEmail).toBe(second.toLowerCase());

      const resent = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/me/email-change/resend',
        headers,
      });
      expect(resent.statusCode).toBe(200);
      const resentToken = await eventually(async () => {
        const token = await confirmToken(second);
        return token === secondToken ? undefined : token;
      });
      expect((await confirm(secondToken)).statusCode).toBe(400);

      const cancel = () =>
        t.app.inject({ method: 'DELETE', url: '/api/accounts/me/email-change', headers });
      const cancelled = await cancel();
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().data).toEqual({ pending: null });
      expect((await confirm(resentToken)).statusCode).toBe(400);
      expect(await emailOf(user.id)).toBe(user.email);
      expect((await cancel()).statusCode).toBe(404);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/accounts/me/email-change/resend',
            headers,
          })
        ).statusCode,
      ).toBe(404);
      expect((await t.app.inject({ url: '/api/accounts/me/email-change' })).statusCode).toBe(401);
    });

    it('refuses the confirmation when the address was taken meanwhile, and changes nothing', async () => {
      const user = await t.createUser();
      const headers = await t.authHeader(user.id);
      const to = fresh('contested');
      await changeOwn(headers, to, user.password);
      const token = await confirmToken(to);
      // Another company's administrator gives the address to a new user first.
      expect((await createUser(to, otherAdmin)).statusCode).toBe(201);
      expect(refusal(await confirm(token))).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: CANNOT,
      });
      expect(await emailOf(user.id)).toBe(user.email);
      expect(
        await t.db.select().from(emailChangeTokens).where(eq(emailChangeTokens.userId, user.id)),
      ).toEqual([]);
      expect((await confirm('made-up-token')).statusCode).toBe(400);
    });
  });

  describe('finding 1: one rule for every email change', () => {
    it('refuses the caller’s own email on the administration route (403 naming the account route)', async () => {
      const before = await emailOf(t.company.adminId);
      const own = await patchUser(t.company.adminId, fresh('admin-own'));
      expect(own.statusCode).toBe(403);
      expect(own.json()).toMatchObject({ success: false, code: 'FORBIDDEN', status: 403 });
      expect(own.json().message).toContain('PATCH /api/accounts/me');
      expect(await emailOf(t.company.adminId)).toBe(before);
      expect(
        await t.db
          .select()
          .from(emailChangeTokens)
          .where(eq(emailChangeTokens.userId, t.company.adminId)),
      ).toEqual([]);
      // The same address (in another case) is no change, and other fields still save.
      const same = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${t.company.adminId}`,
        headers: admin,
        payload: {
          version: await versionOf(t.company.adminId),
          email: before.toUpperCase(),
          phone: '+1 555 0100',
        },
      });
      expect(same.statusCode).toBe(200);

      // A users.update holder (not an administrator) is refused alike.
      await t.createRole(`Editor ${counter}`, ['users.read', 'users.update']);
      const editor = await t.createUser({ roles: [`Editor ${counter}`] });
      const refused = await patchUser(
        editor.id,
        fresh('editor-own'),
        await t.authHeader(editor.id),
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('PATCH /api/accounts/me');
      expect(await emailOf(editor.id)).toBe(editor.email);
    });

    it('an administrator changing another user’s email mails the old address an undo link and ends their sign-ins', async () => {
      const user = await t.createUser();
      const signedIn = await t.signIn(user.userName, user.password);
      const forgot = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: user.email },
      });
      expect(forgot.statusCode).toBe(200);
      const resetToken = linkToken(await mailTo(user.email), 'reset-password');

      const newEmail = fresh('admin-moved');
      const changed = await patchUser(user.id, newEmail);
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.email).toBe(newEmail);
      expect(changed.json().message).toContain(user.email);
      expect((await verify(signedIn.accessToken)).statusCode).toBe(401);
      // A reset link that went to the old address died with the change.
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: { token: resetToken, password: 'a reset through old mail' },
      });
      expect(reset.statusCode).toBe(400);

      const notice = await mailTo(user.email, CHANGED);
      expect(notice.text).toContain('An administrator of your company changed');
      expect(notice.text).toContain(newEmail);
      expect(notice.text).toContain('/auth/undo-email-change?token=[redacted]');
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'user.update'), eq(auditEvents.entityId, user.id)));
      expect(event).toMatchObject({
        actorId: t.company.adminId,
        before: { email: user.email },
        after: { email: newEmail, signInsEnded: 1, oldAddressNotified: true },
      });

      // The old address's owner undoes it: the address comes back, the password must be reset.
      const done = await undo(linkToken(notice, 'undo-email-change'));
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toEqual({ email: user.email });
      expect(await emailOf(user.id)).toBe(user.email);
      await expect(t.signIn(user.userName, user.password)).rejects.toThrow(/401/);
    });

    it('bulk changes cannot change an email (the import only creates users)', async () => {
      const user = await t.createUser();
      const bulk = await t.app.inject({
        method: 'PATCH',
        url: '/api/users/bulk',
        headers: admin,
        payload: { ids: [user.id], changes: { email: fresh('bulk') } },
      });
      expect(bulk.statusCode).toBe(400);
      expect(await emailOf(user.id)).toBe(user.email);
    });
  });

  describe('finding 2: an address changed away is held for its undo window', () => {
    it('no account of any company may take it; the undo then works', async () => {
      const owner = await movedAway();
      const held = owner.email;

      // Another company's user, through the account route with their own password.
      const outsider = await t.createUser({ companyId: other.companyId });
      const own = await changeOwn(await t.authHeader(outsider.id), held, outsider.password);
      expect(refusal(own)).toEqual({ status: 409, code: 'CONFLICT', message: CANNOT });
      // Another company's administrator creating a user, editing one, importing one.
      expect(refusal(await createUser(held, otherAdmin))).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: CANNOT,
      });
      const theirs = await t.createUser({ companyId: other.companyId });
      expect(refusal(await patchUser(theirs.id, held, otherAdmin))).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: CANNOT,
      });
      const imported = await t.app.inject({
        method: 'POST',
        url: '/api/users/import?dryRun=false',
        headers: otherAdmin,
        payload: { csv: `email,userName,firstName,lastName\r\n${held},held.import,Held,Import` },
      });
      expect(imported.json().data.rows[0]).toMatchObject({
        outcome: 'error',
        errors: [{ field: 'email', message: CANNOT }],
      });
      // Its own company too: a hold is for the account that moved away only.
      expect(refusal(await createUser(held))).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: CANNOT,
      });
      const taken = await t.db.select().from(users).where(eq(users.email, held));
      expect(taken).toEqual([]);

      const done = await undo(owner.undoToken);
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toEqual({ email: held });
      expect(await emailOf(owner.id)).toBe(held);
    });

    it('a restored user cannot bring back an address held since their delete', async () => {
      // Another company's user is deleted; a Demo user takes their free address, then moves away.
      const gone = await t.createUser({ companyId: other.companyId });
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${gone.id}`,
        headers: otherAdmin,
      });
      expect(deleted.statusCode).toBe(200);
      const mover = await t.createUser();
      const moverAuth = await t.authHeader(mover.id);
      expect(await changeOwnConfirmed(moverAuth, gone.email, mover.password)).toBe(200);
      expect(await changeOwnConfirmed(moverAuth, fresh('away'), mover.password)).toBe(200);
      const restored = await t.app.inject({
        method: 'POST',
        url: `/api/users/${gone.id}/restore`,
        headers: otherAdmin,
      });
      expect(refusal(restored)).toEqual({ status: 409, code: 'CONFLICT', message: CANNOT });
    });

    it('refuses an invitation’s acceptance for a held address, and frees the address when the undo expires', async () => {
      const email = fresh('invitee');
      const invited = await t.app.inject({
        method: 'POST',
        url: '/api/users/invitations',
        headers: otherAdmin,
        payload: { email, userFirstName: 'In', userLastName: 'Vitee', roleIds: [] },
      });
      expect(invited.statusCode).toBe(201);
      const token = linkToken(await mailTo(email), 'accept-invitation');
      // Meanwhile a Demo user takes the free address, then moves away from it: it is held.
      const mover = await t.createUser();
      const moverAuth = await t.authHeader(mover.id);
      expect(await changeOwnConfirmed(moverAuth, email, mover.password)).toBe(200);
      expect(await changeOwnConfirmed(moverAuth, fresh('gone'), mover.password)).toBe(200);
      const accepted = await t.app.inject({
        method: 'POST',
        url: '/api/users/invitations/accept',
        payload: { token, userName: `accept-${counter}`, password: 'a long enough passphrase' },
      });
      expect(refusal(accepted)).toEqual({ status: 409, code: 'CONFLICT', message: CANNOT });

      // Once the undo window is over, the address is free again.
      await t.db
        .update(emailChangeTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailChangeTokens.userId, mover.id));
      expect((await createUser(email, otherAdmin)).statusCode).toBe(201);
    });
  });

  describe('finding 5: revoking an invitation follows the rule of resending it', () => {
    it('refuses a users.create holder who lacks what the invitation’s roles give', async () => {
      const { administratorRoleId } = await t.accessFixture();
      const invited = await t.app.inject({
        method: 'POST',
        url: '/api/users/invitations',
        headers: admin,
        payload: {
          email: fresh('revoke'),
          userFirstName: 'Re',
          userLastName: 'Voke',
          roleIds: [administratorRoleId],
        },
      });
      expect(invited.statusCode).toBe(201);
      const id = invited.json().data._id;
      await t.createRole(`Inviter ${counter}`, ['users.create', 'users.read']);
      const inviter = await t.createUser({ roles: [`Inviter ${counter}`] });
      const inviterAuth = await t.authHeader(inviter.id);
      const resend = await t.app.inject({
        method: 'POST',
        url: `/api/users/invitations/${id}/resend`,
        headers: inviterAuth,
      });
      expect(resend.statusCode).toBe(403);
      const revoke = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/invitations/${id}`,
        headers: inviterAuth,
      });
      expect(revoke.statusCode).toBe(403);
      expect(revoke.json()).toMatchObject({ code: 'FORBIDDEN' });
      const [row] = await t.db.select().from(invitations).where(eq(invitations.id, id));
      expect(row?.revokedAt).toBeNull();
      const byAdmin = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/invitations/${id}`,
        headers: admin,
      });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().data.status).toBe('revoked');
    });
  });

  describe('finding 6: no answer tells another company that an address has an account', () => {
    it('creation and email change answer alike for another company’s account and a held address', async () => {
      const elsewhere = await t.createUser({ companyId: other.companyId });
      const held = (await movedAway()).email;
      const target = await t.createUser();
      const answers = [
        refusal(await createUser(elsewhere.email)),
        refusal(await createUser(held)),
        refusal(await patchUser(target.id, elsewhere.email)),
        refusal(await patchUser(target.id, held)),
      ];
      for (const answer of answers)
        expect(answer).toEqual({ status: 409, code: 'CONFLICT', message: CANNOT });
      // Within the company the detail stays: the administrator can see that user anyway.
      const colleague = await t.createUser();
      const inCompany = await createUser(colleague.email);
      expect(inCompany.statusCode).toBe(409);
      expect(inCompany.json().message).toMatch(/already used by another user of your company/);
    });

    it('invites an address with an account elsewhere like any other; the mail says they have an account', async () => {
      const elsewhere = await t.createUser({ companyId: other.companyId });
      const held = (await movedAway()).email;
      for (const email of [elsewhere.email, held]) {
        const invited = await t.app.inject({
          method: 'POST',
          url: '/api/users/invitations',
          headers: admin,
          payload: { email, userFirstName: 'Al', userLastName: 'Ready', roleIds: [] },
        });
        expect(invited.statusCode).toBe(201);
        expect(invited.json()).toMatchObject({
          message: `An invitation was sent to ${email}.`,
          data: { email, status: 'pending' },
        });
        const mail = await mailTo(email, 'You are invited to Demo Company on Power Analyzer');
        expect(mail.text).toContain('You already have a Power Analyzer account');
        expect(mail.text).toContain('cannot be accepted with it');
        expect(mail.text).not.toContain('/auth/accept-invitation');
        const resent = await t.app.inject({
          method: 'POST',
          url: `/api/users/invitations/${invited.json().data._id}/resend`,
          headers: admin,
        });
        expect(resent.statusCode).toBe(200);
      }
      // A user of the inviting company is still named.
      const colleague = await t.createUser();
      const inCompany = await t.app.inject({
        method: 'POST',
        url: '/api/users/invitations',
        headers: admin,
        payload: { email: colleague.email, userFirstName: 'Co', userLastName: 'Worker' },
      });
      expect(inCompany.statusCode).toBe(409);
    });

    it('the import report names no permission codes to a caller without permissions.read', async () => {
      await t.createRole(`Secretive ${counter}`, ['roles.update', 'audit.read']);
      const role = `Secretive ${counter}`;
      await t.createRole(`Importer ${counter}`, ['users.create', 'users.read']);
      const importer = await t.createUser({ roles: [`Importer ${counter}`] });
      await t.createRole(`Reader ${counter}`, ['users.create', 'users.read', 'permissions.read']);
      const reader = await t.createUser({ roles: [`Reader ${counter}`] });
      const csv = `email,userName,firstName,lastName,roles\r\n${fresh('imp')},imp.${counter},Im,Port,${role}`;
      const report = async (userId: string) => {
        const answer = await t.app.inject({
          method: 'POST',
          url: '/api/users/import?dryRun=true',
          headers: await t.authHeader(userId),
          payload: { csv },
        });
        expect(answer.statusCode).toBe(200);
        return answer.json().data.rows[0].errors as { field: string; message: string }[];
      };
      const hidden = await report(importer.id);
      expect(hidden).toEqual([
        {
          field: 'roles',
          message:
            'You cannot give these roles because they involve permissions you do not hold yourself.',
        },
      ]);
      expect(JSON.stringify(hidden)).not.toMatch(/roles\.update|audit\.read/);
      const named = await report(reader.id);
      expect(named[0]?.message).toMatch(/audit\.read, roles\.update/);

      // And an address elsewhere reads like a held one in the report.
      const elsewhere = await t.createUser({ companyId: other.companyId });
      const held = (await movedAway()).email;
      const rows = await t.app.inject({
        method: 'POST',
        url: '/api/users/import?dryRun=true',
        headers: admin,
        payload: {
          csv: `email,userName,firstName,lastName\r\n${elsewhere.email},e.${counter},E,L\r\n${held},h.${counter},H,L`,
        },
      });
      expect(rows.json().data.rows.map((r: { errors: unknown }) => r.errors)).toEqual([
        [{ field: 'email', message: CANNOT }],
        [{ field: 'email', message: CANNOT }],
      ]);
    });
  });
});
