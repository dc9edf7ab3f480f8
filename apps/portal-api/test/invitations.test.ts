// Invitations and the administrator-sent password reset (issue #26, docs/reference/invitations.md).
import fs from 'node:fs';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, invitations, mailOutbox, userRoles, users } from '../src/db/schema';
import { buildTestApp, DATABASES, eventually, type TestApp } from './helper';

const DAY = 24 * 3600 * 1000;
const PASSWORD = 'a fine invitee passphrase';

describe.each(DATABASES)('invitations on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
  });
  afterAll(() => t?.close());

  let counter = 0;
  const newEmail = () => `Invitee.${++counter}-${Date.now().toString(36)}@Example.test`;

  const invite = (payload: object, headers = admin) =>
    t.app.inject({ method: 'POST', url: '/api/users/invitations', payload, headers });
  const accept = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/users/invitations/accept', payload });
  const lookup = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/invitations/lookup', payload: { token } });

  /** The token of the newest mail to `email` linking to `/auth/<page>`, read from its outbox file. */
  const mailedToken = (email: string, page: string, after = 0) =>
    eventually(async () => {
      const rows = await t.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, email.toLowerCase()))
        .orderBy(desc(mailOutbox.createdAt));
      if (rows.length <= after) return undefined;
      const eml = fs.readFileSync(rows[0]?.file ?? '', 'utf8');
      const token = new RegExp(`/auth/${page}\\?token=([\\w-]+)`).exec(eml)?.[1];
      return token ? { token, row: rows[0]!, eml, count: rows.length } : undefined;
    });

  const usersWithEmail = async (email: string) =>
    t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));

  it('invites: 201 with the invitation, a mail whose link works 7 days, only a hash stored, audited', async () => {
    const { administratorRoleId } = await t.accessFixture();
    const email = newEmail();
    const before = Date.now();
    const response = await invite({
      email,
      userFirstName: 'Ines',
      userLastName: 'Vite',
      roleIds: [administratorRoleId],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ success: true, code: 'CREATED', status: 201 });
    expect(body.data).toMatchObject({
      email: email.toLowerCase(),
      userFirstName: 'Ines',
      userLastName: 'Vite',
      roles: [{ _id: administratorRoleId, name: 'Administrator' }],
      invitedBy: { _id: t.company.adminId, userName: 'admin' },
      status: 'pending',
    });
    const expiresIn = Date.parse(body.data.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(7 * DAY - 1000);
    expect(expiresIn).toBeLessThanOrEqual(7 * DAY + 60_000);

    const mail = await mailedToken(email, 'accept-invitation');
    expect(mail.eml).toContain('Subject: You are invited to Demo Company on Power Analyzer');
    expect(mail.eml).toContain('within 7 days');
    // named as a person knows them (issue #43 item 9): the seeded admin is Demo Admin, not "admin"
    expect(mail.row.text).toContain('Demo Admin invited you to join Demo Company');
    expect(mail.row.text).not.toContain('admin invited you');
    expect(mail.eml).toContain('http://web.test/auth/accept-invitation?token=');
    expect(mail.row.text).toContain('/auth/accept-invitation?token=[redacted]');
    const [stored] = await t.db.select().from(invitations).where(eq(invitations.id, body.data._id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(mail.token);

    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'invitation.create'), eq(auditEvents.entityId, body.data._id)),
      );
    expect(event).toMatchObject({ actorId: t.company.adminId, entityType: 'invitation' });
    expect(event?.after).toMatchObject({ email: email.toLowerCase(), roles: ['Administrator'] });

    const list = await t.app.inject({ url: '/api/users/invitations', headers: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.items.map((i: { _id: string }) => i._id)).toContain(body.data._id);
  });

  it('answers 409 for an email a user or an open invitation of this company uses', async () => {
    const user = await t.createUser();
    const taken = await invite({ email: user.email.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ success: false, code: 'CONFLICT' });
    expect(taken.json().message).toMatch(/already used by a user of your company/);

    const email = newEmail();
    expect((await invite({ email })).statusCode).toBe(201);
    const twice = await invite({ email: email.toUpperCase() });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/pending invitation; resend it/);

    // Another company may invite the same person.
    const other = await t.createCompany(`Invites Elsewhere ${counter}`);
    const otherAdmin = await t.authHeader(other.adminId);
    expect((await invite({ email }, otherAdmin)).statusCode).toBe(201);

    const bad = await invite({ email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('email');
  });

  it('gives only roles whose permissions the inviter holds, and needs users.create', async () => {
    const inviterRole = await t.createRole(`Inviter ${counter}`, ['users.create', 'users.read']);
    const inviter = await t.createUser({ roles: [`Inviter ${counter}`] });
    const inviterAuth = await t.authHeader(inviter.id);
    const { administratorRoleId } = await t.accessFixture();

    const escalating = await invite(
      { email: newEmail(), roleIds: [administratorRoleId] },
      inviterAuth,
    );
    expect(escalating.statusCode).toBe(403);
    expect(escalating.json().message).toMatch(
      /permissions you do not hold yourself: .*roles\.update/,
    );
    const same = await invite({ email: newEmail(), roleIds: [inviterRole] }, inviterAuth);
    expect(same.statusCode).toBe(201);
    const unknownRole = await invite(
      { email: newEmail(), roleIds: ['01900000-0000-7000-8000-000000000000'] },
      inviterAuth,
    );
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json().errors[0].field).toBe('roleIds');

    // A user without users.create can neither invite nor see or change invitations.
    const reader = await t.createUser();
    const readerAuth = await t.authHeader(reader.id);
    const id = same.json().data._id;
    const calls = [
      { method: 'GET', url: '/api/users/invitations' },
      { method: 'POST', url: '/api/users/invitations', payload: { email: newEmail() } },
      { method: 'POST', url: `/api/users/invitations/${id}/resend` },
      { method: 'DELETE', url: `/api/users/invitations/${id}` },
    ] as const;
    for (const call of calls) {
      expect((await t.app.inject(call)).statusCode, call.url).toBe(401);
      expect((await t.app.inject({ ...call, headers: readerAuth })).statusCode, call.url).toBe(403);
    }
    // Another company's administrator does not see or touch this one's invitations.
    const other = await t.createCompany(`Invites Apart ${counter}`);
    const otherAdmin = await t.authHeader(other.adminId);
    const theirs = await t.app.inject({ url: '/api/users/invitations', headers: otherAdmin });
    expect(theirs.json().data.items.map((i: { _id: string }) => i._id)).not.toContain(id);
    for (const call of calls.slice(2)) {
      expect((await t.app.inject({ ...call, headers: otherAdmin })).statusCode, call.url).toBe(404);
    }
  });

  it('accepts: creates the active user with the roles, signs them in like sign-in, and works once', async () => {
    const roleId = await t.createRole(`Invitee role ${counter}`, ['users.read']);
    const email = newEmail();
    const created = await invite({
      email,
      userFirstName: 'Ada',
      userLastName: 'Accept',
      roleIds: [roleId],
    });
    const { token } = await mailedToken(email, 'accept-invitation');

    const preview = await lookup(token);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      email: email.toLowerCase(),
      userFirstName: 'Ada',
      companyName: 'Demo Company',
      suggestedUserName: email.split('@')[0]!.toLowerCase(),
    });

    const weak = await accept({ token, password: 'Password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0]).toMatchObject({ field: 'password' });
    const taken = await accept({ token, userName: 'ADMIN', password: PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/user name "ADMIN" is already taken/);
    expect(await usersWithEmail(email)).toHaveLength(0);

    const done = await accept({ token, userName: 'ada.accept', password: PASSWORD });
    expect(done.statusCode).toBe(200);
    const data = done.json().data;
    expect(data).toMatchObject({
      userName: 'ada.accept',
      email: email.toLowerCase(),
      userFirstName: 'Ada',
      userLastName: 'Accept',
      status: 'active',
      companyName: 'Demo Company',
      roles: [{ _id: roleId }],
      permissions: ['users.read'],
    });
    expect(typeof data.accessToken).toBe('string');
    expect(done.cookies.find((c) => c.name === 'refreshToken')?.value).toBe(data.refreshToken);
    expect(done.cookies.find((c) => c.name === 'signInDevice')).toBeDefined();
    const verify = await t.app.inject({
      url: '/api/accounts/verify',
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    expect(verify.statusCode).toBe(200);
    expect((await t.signIn('ada.accept', PASSWORD)).userName).toBe('ada.accept');
    const links = await t.db.select().from(userRoles).where(eq(userRoles.userId, data._id));
    expect(links.map((l) => l.roleId)).toEqual([roleId]);
    const [accepted] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'invitation.accept'), eq(auditEvents.entityId, data._id)));
    expect(accepted?.after).toMatchObject({ invitationId: created.json().data._id });

    // Twice: a clear 410, nothing more created; the invitation left the open list.
    const again = await accept({ token, userName: 'ada.again', password: PASSWORD });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ success: false, code: 'INVITATION_USED' });
    expect((await lookup(token)).json().code).toBe('INVITATION_USED');
    expect(await usersWithEmail(email)).toHaveLength(1);
    const list = await t.app.inject({ url: '/api/users/invitations', headers: admin });
    expect(list.json().data.items.map((i: { email: string }) => i.email)).not.toContain(
      email.toLowerCase(),
    );
  });

  it('a company that requires a second step has the invitee enrol before any token', async () => {
    const policy = (requireFor: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/security/mfa-policy',
        payload: { requireFor, permissionCodes: [] },
        headers: admin,
      });
    const email = newEmail();
    expect((await invite({ email })).statusCode).toBe(201);
    const { token } = await mailedToken(email, 'accept-invitation');
    expect((await policy('everyone')).statusCode).toBe(200);
    try {
      const done = await accept({ token, password: PASSWORD });
      expect(done.statusCode).toBe(200);
      const data = done.json().data;
      expect(data).toMatchObject({ mfaRequired: true, enrolmentRequired: true });
      expect(typeof data.mfaToken).toBe('string');
      expect(data.accessToken).toBeUndefined();
      expect(done.headers['set-cookie']).toBeUndefined();
      // the account exists and the link is used
      expect(await usersWithEmail(email)).toHaveLength(1);
      expect((await accept({ token, password: PASSWORD })).statusCode).toBe(410);
    } finally {
      expect((await policy('nobody')).statusCode).toBe(200);
    }
  });

  it('suggests a free user name from the email when none is given', async () => {
    const first = await t.createUser();
    const email = `${first.userName}@elsewhere.test`;
    await invite({ email });
    const { token } = await mailedToken(email, 'accept-invitation');
    expect((await lookup(token)).json().data.suggestedUserName).toBe(`${first.userName}2`);
    const done = await accept({ token, password: PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.userName).toBe(`${first.userName}2`);
  });

  it('refuses expired, revoked, replaced and unknown links with their own codes, creating nothing', async () => {
    // Expired
    const expiredEmail = newEmail();
    const expired = (await invite({ email: expiredEmail })).json().data;
    const expiredToken = (await mailedToken(expiredEmail, 'accept-invitation')).token;
    await t.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired._id));
    const late = await accept({ token: expiredToken, password: PASSWORD });
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('INVITATION_EXPIRED');
    expect(late.json().message).toMatch(/expired/);
    expect((await lookup(expiredToken)).json().code).toBe('INVITATION_EXPIRED');
    const listed = (await t.app.inject({ url: '/api/users/invitations', headers: admin }))
      .json()
      .data.items.find((i: { _id: string }) => i._id === expired._id);
    expect(listed?.status).toBe('expired');
    expect((await invite({ email: expiredEmail })).json().message).toMatch(/expired invitation/);

    // Resend: new token and expiry, the old link dies; an expired one comes back.
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/users/invitations/${expired._id}/resend`,
      headers: admin,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data.status).toBe('pending');
    expect(Date.parse(resent.json().data.expiresAt)).toBeGreaterThan(Date.now() + 6 * DAY);
    const newToken = (await mailedToken(expiredEmail, 'accept-invitation', 1)).token;
    expect(newToken).not.toBe(expiredToken);
    const old = await accept({ token: expiredToken, password: PASSWORD });
    expect(old.statusCode).toBe(404);
    expect(old.json().code).toBe('INVITATION_NOT_FOUND');
    expect(await usersWithEmail(expiredEmail)).toHaveLength(0);

    // Revoked
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/invitations/${expired._id}`,
      headers: admin,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.status).toBe('revoked');
    const withdrawn = await accept({ token: newToken, password: PASSWORD });
    expect(withdrawn.statusCode).toBe(410);
    expect(withdrawn.json().code).toBe('INVITATION_REVOKED');
    expect(await usersWithEmail(expiredEmail)).toHaveLength(0);
    const revokeAgain = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/invitations/${expired._id}`,
      headers: admin,
    });
    expect(revokeAgain.statusCode).toBe(409);
    const actions = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, expired._id));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'invitation.create',
      'invitation.resend',
      'invitation.revoke',
    ]);

    const unknown = await accept({ token: 'made-up-token', password: PASSWORD });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('INVITATION_NOT_FOUND');
    const missing = await accept({});
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['password', 'token']);
  });

  it('INVITATION_TTL sets how long a link works', async () => {
    const short = await buildTestApp({ database, env: { INVITATION_TTL: '3600' } });
    try {
      const before = Date.now();
      const response = await short.app.inject({
        method: 'POST',
        url: '/api/users/invitations',
        payload: { email: newEmail() },
        headers: await short.authHeader(),
      });
      expect(response.statusCode).toBe(201);
      const expiresIn = Date.parse(response.json().data.expiresAt) - before;
      expect(expiresIn).toBeGreaterThanOrEqual(3600_000 - 1000);
      expect(expiresIn).toBeLessThanOrEqual(3600_000 + 60_000);
    } finally {
      await short.close();
    }
  });

  describe('POST /api/users/:id/password-reset', () => {
    const sendReset = (id: string, headers = admin) =>
      t.app.inject({ method: 'POST', url: `/api/users/${id}/password-reset`, headers });

    it('mails the user the forgot-password reset link, audited; the link sets a new password', async () => {
      const user = await t.createUser();
      const response = await sendReset(user.id);
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toContain(user.email);
      const mail = await mailedToken(user.email, 'reset-password');
      expect(mail.eml).toContain('An administrator of your company sent you a link');
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: { token: mail.token, password: 'a reset by the admin' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await t.signIn(user.userName, 'a reset by the admin')).userName).toBe(user.userName);
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'user.password-reset-link'),
            eq(auditEvents.entityId, user.id),
          ),
        );
      expect(event).toMatchObject({ actorId: t.company.adminId, entityType: 'user' });
    });

    it('needs users.update, never targets a more powerful user, another company or an inactive one', async () => {
      await t.createRole(`Resetter ${counter}`, ['users.update', 'users.read']);
      const resetter = await t.createUser({ roles: [`Resetter ${counter}`] });
      const resetterAuth = await t.authHeader(resetter.id);
      const escalating = await sendReset(t.company.adminId, resetterAuth);
      expect(escalating.statusCode).toBe(403);
      expect(escalating.json().message).toMatch(/do not hold yourself/);
      const plain = await t.createUser();
      expect((await sendReset(plain.id, resetterAuth)).statusCode).toBe(200);

      const nobody = await t.authHeader((await t.createUser()).id);
      expect((await sendReset(plain.id, nobody)).statusCode).toBe(403);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/users/${plain.id}/password-reset` }))
          .statusCode,
      ).toBe(401);
      const other = await t.createCompany(`Resets Elsewhere ${counter}`);
      expect((await sendReset(other.adminId)).statusCode).toBe(404);
      const inactive = await t.createUser({ status: 'inactive' });
      const refused = await sendReset(inactive.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/inactive/);
    });
  });
});
