import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, emailChangeTokens, mailOutbox, signIns, users } from '../src/db/schema';
import { SYSTEM_PERMISSION_CODES } from '../src/modules/companies/system-permissions';
import { buildTestApp, DATABASES, eventually, type TestApp } from './helper';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The fields named by a validation error envelope. */
const fieldsOf = (body: { errors: { field?: string }[] }) => body.errors.map((e) => e.field);

const EMAIL_CHANGED_SUBJECT = 'The email address of your Power Analyzer account was changed';

/** The token of a mailed web-app link (`/auth/<page>?token=…`), read from the outbox file. */
function linkToken(mail: { file: string | null }, page: string): string {
  const eml = fs.readFileSync(mail.file ?? '', 'utf8');
  const token = new RegExp(`/auth/${page}\\?token=([\\w-]+)`).exec(eml)?.[1];
  if (!token) throw new Error(`no ${page} link in ${mail.file}`);
  return token;
}

/** Waits for a condition the server completes after answering (the reset mail). */
describe.each(DATABASES)('accounts API on %s', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database });
  });
  afterAll(() => t?.close());

  /** Opens the confirmation link mailed to the new address: the change applies then (ADR 024). */
  const confirmByNewAddress = async (newEmail: string) => {
    const mail = await eventually(async () => {
      const [found] = await t.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.to, newEmail.toLowerCase()),
            eq(mailOutbox.subject, 'Confirm the new email address of your Power Analyzer account'),
          ),
        );
      return found;
    });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/confirm-email-change',
      payload: { token: linkToken(mail, 'confirm-email-change') },
    });
    expect(confirmed.statusCode).toBe(200);
  };

  const verify = (token: string) =>
    t.app.inject({ url: '/api/accounts/verify', headers: bearer(token) });
  const signInRaw = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: payload as object,
      headers,
    });

  describe('POST /api/accounts/sign-in', () => {
    it('signs in by user name or email and answers tokens, user details and the refresh cookie', async () => {
      const response = await signInRaw(
        { userName: 'ADMIN', password: t.company.adminPassword },
        { 'user-agent': 'accounts-test' },
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ success: true, code: 'OK', status: 200 });
      expect(body.data).toMatchObject({
        _id: t.company.adminId,
        userName: 'admin',
        email: 'admin@demo.local',
        userFirstName: 'Demo',
        userLastName: 'Admin',
        companyId: t.company.companyId,
        companyName: 'Demo Company',
        roles: [{ name: 'Administrator' }],
      });
      expect(body.data.permissions.sort()).toEqual([...SYSTEM_PERMISSION_CODES].sort());
      expect(body.data).not.toHaveProperty('passwordHash');

      const cookie = response.cookies.find((c) => c.name === 'refreshToken');
      expect(cookie).toMatchObject({
        value: body.data.refreshToken,
        path: '/',
        secure: true,
        sameSite: 'Strict',
        maxAge: 7 * 24 * 3600,
      });
      expect(cookie?.httpOnly).toBeFalsy();

      const header = decodeProtectedHeader(body.data.accessToken);
      expect(header).toMatchObject({ alg: 'EdDSA', kid: t.app.signingKeys.kid });
      const claims = decodeJwt(body.data.accessToken);
      expect(claims).toMatchObject({
        iss: 'power-analyzer-portal',
        aud: 'power-analyzer',
        sub: t.company.adminId,
        cid: t.company.companyId,
        name: 'admin',
        typ: 'access',
      });
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(900);
      expect((claims.perms as string[]).sort()).toEqual([...SYSTEM_PERMISSION_CODES].sort());

      const byEmail = await signInRaw({
        email: 'Admin@Demo.Local',
        password: t.company.adminPassword,
      });
      expect(byEmail.statusCode).toBe(200);
      expect(byEmail.json().data._id).toBe(t.company.adminId);

      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'account.sign-in'),
            eq(auditEvents.userAgent, 'accounts-test'),
          ),
        );
      expect(event).toMatchObject({
        actorId: t.company.adminId,
        entityId: claims.sid,
        ip: '127.0.0.1',
      });
    });

    it('names the field of a validation error', async () => {
      const noPassword = await signInRaw({ userName: 'admin' });
      expect(noPassword.statusCode).toBe(400);
      expect(noPassword.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(fieldsOf(noPassword.json())).toContain('password');
      const noLogin = await signInRaw({ password: 'whatever-it-is' });
      expect(noLogin.statusCode).toBe(400);
      expect(fieldsOf(noLogin.json())).toEqual(['userName']);
      const both = await signInRaw({ userName: 'a', email: 'a@b.c', password: 'x' });
      expect(fieldsOf(both.json())).toEqual(['userName']);
    });

    it('says only "Invalid credentials." for an unknown account, a wrong password or a disabled account', async () => {
      const inactive = await t.createUser({ status: 'inactive' });
      const locked = await t.createUser({ status: 'locked' });
      const answers = await Promise.all([
        signInRaw({ userName: 'nobody-here', password: 'some-password-1' }),
        signInRaw({ email: 'nobody@nowhere.test', password: 'some-password-1' }),
        signInRaw({ userName: 'admin', password: 'wrong-password-123' }),
        signInRaw({ userName: inactive.userName, password: inactive.password }),
        signInRaw({ userName: locked.userName, password: locked.password }),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toMatchObject({
          success: false,
          code: 'UNAUTHORIZED',
          message: 'Invalid credentials.',
          data: null,
        });
        expect(answer.cookies.find((c) => c.name === 'refreshToken')).toBeUndefined();
      }
      // Failures are audited after the answer (so an unknown account is not told apart by time).
      const failures = await eventually(async () => {
        const rows = await t.db
          .select()
          .from(auditEvents)
          .where(eq(auditEvents.action, 'account.sign-in-failed'));
        const ids = rows.map((row) => row.entityId);
        return [t.company.adminId, inactive.id, locked.id].every((id) => ids.includes(id))
          ? rows
          : undefined;
      });
      expect(JSON.stringify(failures)).not.toContain('wrong-password-123');
    });

    it('takes as long for an unknown account as for a wrong password', async () => {
      // The product's argon2 parameters, not the test runner's cheap ones (passwords.ts): a user
      // hashed with them, and the dummy hash an unknown account is checked against.
      vi.stubEnv('NODE_ENV', 'production');
      const user = await t.createUser({ password: 'timing-passphrase-owasp' });
      const time = async (payload: object) => {
        const started = performance.now();
        await signInRaw(payload);
        return performance.now() - started;
      };
      const unknown: number[] = [];
      const wrong: number[] = [];
      for (let i = 0; i < 9; i++) {
        unknown.push(await time({ userName: 'nobody-here', password: 'some-password-1' }));
        wrong.push(await time({ userName: user.userName, password: 'some-password-1' }));
      }
      vi.unstubAllEnvs();
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[4] ?? 0;
      // Both run one argon2id verification (~40 ms idle); without the dummy hash "unknown" takes
      // ~1 ms. On a busy machine the two spread apart, so either half the other or 15 ms will do:
      // both are far above what skipping the verification costs. (sign-in-limits.test.ts holds the
      // statistical test of equal timing.)
      expect(median(unknown)).toBeGreaterThan(Math.min(median(wrong) * 0.5, 15));
    });
  });

  describe('GET /api/accounts/verify', () => {
    it('answers the user details for a valid token, 401 without one', async () => {
      const { accessToken } = await t.signIn('admin', t.company.adminPassword);
      const response = await verify(accessToken);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        _id: t.company.adminId,
        companyName: 'Demo Company',
      });
      const anonymous = await t.app.inject({ url: '/api/accounts/verify' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      const garbage = await verify('not-a-token');
      expect(garbage.statusCode).toBe(401);
    });

    it('refuses a user who became inactive since the token was issued', async () => {
      const user = await t.createUser();
      const { accessToken } = await t.tokenFor(user.id);
      expect((await verify(accessToken)).statusCode).toBe(200);
      const { users } = await import('../src/db/schema');
      await t.db.update(users).set({ status: 'locked' }).where(eq(users.id, user.id));
      expect((await verify(accessToken)).statusCode).toBe(401);
    });
  });

  describe('POST /api/accounts/rotate-token', () => {
    it('rotates with the cookie or the body, setting a new cookie', async () => {
      const first = await t.signIn('admin', t.company.adminPassword);
      const byCookie = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/rotate-token',
        cookies: { refreshToken: first.refreshToken },
      });
      expect(byCookie.statusCode).toBe(200);
      const second = byCookie.json().data;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(decodeJwt(second.accessToken).sid).toBe(decodeJwt(first.accessToken).sid);
      expect(byCookie.cookies.find((c) => c.name === 'refreshToken')?.value).toBe(
        second.refreshToken,
      );
      expect((await verify(second.accessToken)).statusCode).toBe(200);

      const byBody = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/rotate-token',
        payload: { refreshToken: second.refreshToken },
      });
      expect(byBody.statusCode).toBe(200);
    });

    it('answers 401 "Token refresh failed" and clears the cookie without a usable token', async () => {
      for (const request of [
        { method: 'POST' as const, url: '/api/accounts/rotate-token' },
        {
          method: 'POST' as const,
          url: '/api/accounts/rotate-token',
          payload: { refreshToken: 'made-up' },
        },
      ]) {
        const response = await t.app.inject(request);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({
          code: 'UNAUTHORIZED',
          message: 'Token refresh failed',
        });
        const cleared = response.cookies.find((c) => c.name === 'refreshToken');
        expect(cleared?.value).toBe('');
      }
      const badBody = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/rotate-token',
        payload: { refreshToken: 42 },
      });
      expect(badBody.statusCode).toBe(400);
      expect(fieldsOf(badBody.json())).toEqual(['refreshToken']);
    });
  });

  describe('POST /api/accounts/signout', () => {
    it('ends the sign-in, clears the cookie, and is idempotent', async () => {
      const signedIn = await t.signIn('admin', t.company.adminPassword);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/signout',
        headers: bearer(signedIn.accessToken),
        cookies: { refreshToken: signedIn.refreshToken },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ success: true, message: 'Signed out.' });
      expect(response.cookies.find((c) => c.name === 'refreshToken')?.value).toBe('');
      expect((await verify(signedIn.accessToken)).statusCode).toBe(401);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/signout',
        headers: bearer(signedIn.accessToken),
        cookies: { refreshToken: signedIn.refreshToken },
      });
      expect(again.statusCode).toBe(200);
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/accounts/signout' });
      expect(anonymous.statusCode).toBe(200);
      const events = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'account.sign-out'),
            eq(auditEvents.entityId, String(decodeJwt(signedIn.accessToken).sid)),
          ),
        );
      expect(events).toHaveLength(1);
    });

    it('ends the sign-in named by the refresh token alone', async () => {
      const signedIn = await t.signIn('admin', t.company.adminPassword);
      await t.app.inject({
        method: 'POST',
        url: '/api/accounts/signout',
        payload: { refreshToken: signedIn.refreshToken },
      });
      expect((await verify(signedIn.accessToken)).statusCode).toBe(401);
    });
  });

  describe('forgot and reset password', () => {
    it('answers the same for known and unknown emails and mails a 30-minute link to PUBLIC_URL', async () => {
      const user = await t.createUser();
      const known = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: user.email.toUpperCase() },
        headers: { host: 'evil.example' },
      });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: 'nobody@nowhere.test' },
      });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());

      const row = await eventually(async () => {
        const [found] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
        return found;
      });
      expect(row.transport).toBe('outbox');
      expect(row.text).toContain('http://web.test/auth/reset-password?token=[redacted]');
      const eml = fs.readFileSync(row.file ?? '', 'utf8');
      expect(path.dirname(row.file ?? '')).toBe(path.join(t.config.DATA_DIR, 'outbox'));
      expect(eml).toContain(`To: ${user.email}`);
      expect(eml).not.toContain('evil.example');
      const token = /reset-password\?token=([\w-]+)/.exec(eml)?.[1];
      expect(token).toBeTruthy();
      const mails = await t.db.select().from(mailOutbox);
      expect(mails.filter((m) => m.to === 'nobody@nowhere.test')).toHaveLength(0);

      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: 'not-an-email' },
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad.json())).toEqual(['email']);

      // The reset: weak passwords refused without spending the token, then success, then single use.
      const old = await t.signIn(user.userName, user.password);
      const reset = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/accounts/reset-password',
          payload: { token, password },
        });
      const short = await reset('short');
      expect(short.statusCode).toBe(400);
      expect(fieldsOf(short.json())).toEqual(['password']);
      const common = await reset('Password1234');
      expect(common.statusCode).toBe(400);
      expect(common.json().errors[0]).toMatchObject({
        field: 'password',
        message: expect.stringMatching(/too common/),
      });
      const done = await reset('a brand new passphrase');
      expect(done.statusCode).toBe(200);
      const twice = await reset('another new passphrase');
      expect(twice.statusCode).toBe(400);
      expect(fieldsOf(twice.json())).toEqual(['token']);

      // Every sign-in ended: access and refresh tokens of the old sign-in are dead.
      expect((await verify(old.accessToken)).statusCode).toBe(401);
      const rotate = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/rotate-token',
        payload: { refreshToken: old.refreshToken },
      });
      expect(rotate.statusCode).toBe(401);
      await expect(t.signIn(user.userName, user.password)).rejects.toThrow(/401/);
      expect((await t.signIn(user.userName, 'a brand new passphrase')).userName).toBe(
        user.userName,
      );
    });

    it('refuses an unknown token and names missing fields', async () => {
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: { token: 'made-up-token', password: 'a perfectly fine passphrase' },
      });
      expect(unknown.statusCode).toBe(400);
      expect(fieldsOf(unknown.json())).toEqual(['token']);
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      expect(fieldsOf(missing.json()).sort()).toEqual(['password', 'token']);
    });
  });

  describe('POST /api/accounts/change-password', () => {
    it('checks the current password, refuses weak ones, and ends the other sign-ins only', async () => {
      const user = await t.createUser();
      const here = await t.signIn(user.userName, user.password);
      const elsewhere = await t.signIn(user.userName, user.password);
      const change = (payload: object) =>
        t.app.inject({
          method: 'POST',
          url: '/api/accounts/change-password',
          headers: bearer(here.accessToken),
          payload,
        });
      const wrong = await change({
        currentPassword: 'not-my-password',
        newPassword: 'a fresh passphrase here',
      });
      expect(wrong.statusCode).toBe(400);
      expect(fieldsOf(wrong.json())).toEqual(['currentPassword']);
      const weak = await change({ currentPassword: user.password, newPassword: 'qwertyuiop123' });
      expect(weak.statusCode).toBe(400);
      expect(fieldsOf(weak.json())).toEqual(['newPassword']);
      const short = await change({ currentPassword: user.password, newPassword: 'short' });
      expect(fieldsOf(short.json())).toEqual(['newPassword']);

      const done = await change({
        currentPassword: user.password,
        newPassword: 'a fresh passphrase here',
      });
      expect(done.statusCode).toBe(200);
      expect((await verify(here.accessToken)).statusCode).toBe(200);
      expect((await verify(elsewhere.accessToken)).statusCode).toBe(401);
      await expect(t.signIn(user.userName, user.password)).rejects.toThrow(/401/);
      await t.signIn(user.userName, 'a fresh passphrase here');
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.action, 'account.password-change'), eq(auditEvents.entityId, user.id)),
        );
      expect(event?.after).toEqual({ otherSignInsEnded: 1 });
      expect(JSON.stringify(event)).not.toContain('fresh passphrase');

      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/change-password',
        payload: { currentPassword: 'x', newPassword: 'a fresh passphrase here' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('PATCH /api/accounts/me', () => {
    it('updates the caller’s names and email, audits the change, refuses a taken email', async () => {
      const user = await t.createUser();
      const headers = await t.authHeader(user.id);
      const names = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers,
        // Names need no password; the same email in another case is no change either.
        payload: { userFirstName: 'Ada', email: user.email.toUpperCase() },
      });
      expect(names.statusCode).toBe(200);
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers,
        payload: { email: `Ada-${user.email}`, currentPassword: user.password },
      });
      expect(response.statusCode).toBe(200);
      // The email waits for the new address to confirm it (ADR 024).
      expect(response.json().data).toMatchObject({
        userFirstName: 'Ada',
        userLastName: expect.stringMatching(/^User /),
        email: user.email,
      });
      await confirmByNewAddress(`ada-${user.email}`);
      const events = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'account.update'), eq(auditEvents.entityId, user.id)))
        .orderBy(auditEvents.id);
      expect(events.map((e) => [e.before, e.after])).toEqual([
        [{ userFirstName: 'Test' }, { userFirstName: 'Ada' }],
        [{}, { emailChangeRequested: `ada-${user.email}` }],
        [
          { email: user.email },
          {
            email: `ada-${user.email}`,
            confirmedByNewAddress: true,
            otherSignInsEnded: 0,
            oldAddressNotified: true,
          },
        ],
      ]);
      expect(events[1]?.actorId).toBe(user.id);
      expect(events[2]?.actorId).toBe(user.id);
      expect(JSON.stringify(events)).not.toContain(user.password);

      const taken = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers,
        payload: { email: 'ADMIN@demo.local', currentPassword: user.password },
      });
      expect(taken.statusCode).toBe(409);
      // Never why (ADR 020): the same answer whatever company's account has the address.
      expect(taken.json()).toMatchObject({
        code: 'CONFLICT',
        message: 'This email address cannot be used. Choose another one.',
      });
      const invalid = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers,
        payload: { email: 'nope', userLastName: '' },
      });
      expect(invalid.statusCode).toBe(400);
      expect(fieldsOf(invalid.json()).sort()).toEqual(['email', 'userLastName']);
      const anonymous = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        payload: {},
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('changes the email only with the current password, and changes nothing without it', async () => {
      const user = await t.createUser();
      const headers = await t.authHeader(user.id);
      const change = (payload: object) =>
        t.app.inject({ method: 'PATCH', url: '/api/accounts/me', headers, payload });
      const missing = await change({ email: `new-${user.email}`, userFirstName: 'Mallory' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual([
        expect.objectContaining({ field: 'currentPassword', message: expect.any(String) }),
      ]);
      const wrong = await change({
        email: `new-${user.email}`,
        userFirstName: 'Mallory',
        currentPassword: 'not-the-password',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors).toEqual([
        expect.objectContaining({
          field: 'currentPassword',
          message: 'The current password is not correct.',
        }),
      ]);
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ email: user.email, userFirstName: 'Test' });
      expect(await t.db.select().from(emailChangeTokens)).not.toContainEqual(
        expect.objectContaining({ userId: user.id }),
      );
      const [failed] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'account.password-check-failed'),
            eq(auditEvents.entityId, user.id),
          ),
        );
      expect(failed?.after).toEqual({ for: 'email change' });
    });

    it('mails the old address an undo link and ends every other sign-in', async () => {
      const user = await t.createUser();
      const here = await t.signIn(user.userName, user.password);
      const elsewhere = await t.signIn(user.userName, user.password);
      const forgot = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: user.email },
      });
      expect(forgot.statusCode).toBe(200);
      const resetMail = await eventually(async () => {
        const [found] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
        return found;
      });
      const resetToken = linkToken(resetMail, 'reset-password');

      const newEmail = `moved-${user.email}`;
      const changed = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers: bearer(here.accessToken),
        payload: { email: newEmail, currentPassword: user.password },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().message).toMatch(/open the link we sent there/);
      // Nothing happens before the new address confirms (ADR 024).
      expect((await verify(elsewhere.accessToken)).statusCode).toBe(200);
      await confirmByNewAddress(newEmail);
      expect((await verify(here.accessToken)).statusCode).toBe(200);
      expect((await verify(elsewhere.accessToken)).statusCode).toBe(401);

      const notice = await eventually(async () => {
        const [found] = await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.subject, EMAIL_CHANGED_SUBJECT)));
        return found;
      });
      expect(notice.text).toContain(newEmail);
      expect(notice.text).toContain('http://web.test/auth/undo-email-change?token=[redacted]');
      expect(notice.text).toContain('within 7 days');
      expect(linkToken(notice, 'undo-email-change')).toMatch(/^[\w-]{40,}$/);
      const [stored] = await t.db
        .select()
        .from(emailChangeTokens)
        .where(eq(emailChangeTokens.userId, user.id));
      const days = (stored!.expiresAt.getTime() - stored!.createdAt.getTime()) / 86_400_000;
      expect(days).toBeCloseTo(7, 2);
      // The reset link mailed before the change died with it.
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: { token: resetToken, password: 'a password via old mail' },
      });
      expect(reset.statusCode).toBe(400);
    });

    it('undoes the change from the old address: email back, sign-ins ended, password disabled', async () => {
      const user = await t.createUser();
      const thief = await t.signIn(user.userName, user.password);
      const takeTo = async (email: string) => {
        const answer = await t.app.inject({
          method: 'PATCH',
          url: '/api/accounts/me',
          headers: bearer(thief.accessToken),
          payload: { email, currentPassword: user.password },
        });
        expect(answer.statusCode).toBe(200);
        // the thief controls the new mailbox, so confirming is no obstacle to them
        await confirmByNewAddress(email);
      };
      const undoOf = (to: string) =>
        eventually(async () => {
          const [found] = await t.db
            .select()
            .from(mailOutbox)
            .where(and(eq(mailOutbox.to, to), eq(mailOutbox.subject, EMAIL_CHANGED_SUBJECT)));
          return found ? linkToken(found, 'undo-email-change') : undefined;
        });
      // The thief moves the account twice: each old address gets its own link.
      await takeTo(`thief-one-${user.email}`);
      await takeTo(`thief-two-${user.email}`);
      const ownerLink = await undoOf(user.email);
      const thiefLink = await undoOf(`thief-one-${user.email}`);

      const undo = (token: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/accounts/undo-email-change',
          payload: { token },
        });
      const done = await undo(ownerLink);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ success: true, data: { email: user.email } });
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.email).toBe(user.email);
      // Every sign-in ended; the password the thief knew no longer works.
      expect((await verify(thief.accessToken)).statusCode).toBe(401);
      await expect(t.signIn(user.userName, user.password)).rejects.toThrow(/401/);
      // Single use, and the later change's link (at the thief's address) died with it.
      expect(fieldsOf((await undo(ownerLink)).json())).toEqual(['token']);
      expect((await undo(thiefLink)).statusCode).toBe(400);
      expect((await undo('made-up')).statusCode).toBe(400);
      // A reset link went to the restored address; the owner chooses a new password with it.
      const resetMail = await eventually(async () => {
        const [found] = await t.db
          .select()
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.to, user.email),
              eq(mailOutbox.subject, 'Reset your Power Analyzer password'),
            ),
          );
        return found;
      });
      expect(resetMail.text).toMatch(/undone/);
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: {
          token: linkToken(resetMail, 'reset-password'),
          password: 'the owner’s new passphrase',
        },
      });
      expect(reset.statusCode).toBe(200);
      await t.signIn(user.email, 'the owner’s new passphrase');

      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'account.email-change-undone'),
            eq(auditEvents.entityId, user.id),
          ),
        );
      expect(event).toMatchObject({
        actorId: user.id,
        before: { email: `thief-two-${user.email}` },
        after: { email: user.email, signInsEnded: 1, mustReset: true },
      });
    });

    it('secures the account when the old address was taken all the same (409, not restored)', async () => {
      const user = await t.createUser();
      const thief = await t.signIn(user.userName, user.password);
      const oldEmail = user.email;
      const changed = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers: bearer(thief.accessToken),
        payload: { email: `elsewhere-${oldEmail}`, currentPassword: user.password },
      });
      expect(changed.statusCode).toBe(200);
      await confirmByNewAddress(`elsewhere-${oldEmail}`);
      const mail = await eventually(async () => {
        const [found] = await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, oldEmail), eq(mailOutbox.subject, EMAIL_CHANGED_SUBJECT)));
        return found;
      });
      const token = linkToken(mail, 'undo-email-change');
      // Taken outside the rules that hold it (as the admin command line or the database could).
      const squatter = await t.createUser();
      await t.db.update(users).set({ email: oldEmail }).where(eq(users.id, squatter.id));
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/undo-email-change',
        payload: { token },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/could not come back.*sign-in.*ended.*disabled/);
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.email).toBe(`elsewhere-${oldEmail}`);
      // Secured anyway: the thief's sign-in ended, the password they knew no longer works.
      expect((await verify(thief.accessToken)).statusCode).toBe(401);
      await expect(t.signIn(user.userName, user.password)).rejects.toThrow(/401/);
      // The reset link goes to the address the undo link proved, for this account.
      const resetMail = await eventually(async () => {
        const [found] = await t.db
          .select()
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.to, oldEmail),
              eq(mailOutbox.subject, 'Reset your Power Analyzer password'),
            ),
          );
        return found;
      });
      expect(resetMail.text).toMatch(/could not come back/);
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/reset-password',
        payload: { token: linkToken(resetMail, 'reset-password'), password: 'owner again at last' },
      });
      expect(reset.statusCode).toBe(200);
      await t.signIn(user.userName, 'owner again at last');
      await expect(t.signIn(squatter.userName, 'owner again at last')).rejects.toThrow(/401/);
      // Used: the link does not work twice.
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/undo-email-change',
        payload: { token },
      });
      expect(again.statusCode).toBe(400);
    });
  });

  describe('sign-ins', () => {
    it('lists the caller’s sign-ins and ends one or all others', async () => {
      const user = await t.createUser();
      const a = await t.signIn(user.userName, user.password);
      const b = await t.signIn(user.userName, user.password);
      const c = await t.signIn(user.userName, user.password);
      const list = await t.app.inject({
        url: '/api/accounts/sessions',
        headers: bearer(a.accessToken),
      });
      expect(list.statusCode).toBe(200);
      const items = list.json().data.items as { _id: string; current: boolean; ip: string }[];
      expect(items).toHaveLength(3);
      expect(items.filter((i) => i.current).map((i) => i._id)).toEqual([
        decodeJwt(a.accessToken).sid,
      ]);
      expect(items[0]).toMatchObject({ ip: '127.0.0.1', userAgent: 'lightMyRequest' });

      const bSid = String(decodeJwt(b.accessToken).sid);
      const end = await t.app.inject({
        method: 'DELETE',
        url: `/api/accounts/sessions/${bSid}`,
        headers: bearer(a.accessToken),
      });
      expect(end.statusCode).toBe(200);
      expect(end.json().data).toEqual({ revoked: 1 });
      expect((await verify(b.accessToken)).statusCode).toBe(401);

      const notMine = await t.app.inject({
        method: 'DELETE',
        url: `/api/accounts/sessions/${String(decodeJwt((await t.tokenFor(t.company.adminId)).accessToken).sid)}`,
        headers: bearer(a.accessToken),
      });
      expect(notMine.statusCode).toBe(404);
      const badId = await t.app.inject({
        method: 'DELETE',
        url: '/api/accounts/sessions/not-an-id',
        headers: bearer(a.accessToken),
      });
      expect(badId.statusCode).toBe(400);
      expect(fieldsOf(badId.json())).toEqual(['id']);

      const others = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/sessions/revoke-others',
        headers: bearer(a.accessToken),
      });
      expect(others.json().data).toEqual({ revoked: 1 });
      expect((await verify(c.accessToken)).statusCode).toBe(401);
      expect((await verify(a.accessToken)).statusCode).toBe(200);
      const after = await t.app.inject({
        url: '/api/accounts/sessions',
        headers: bearer(a.accessToken),
      });
      expect(after.json().data.items).toHaveLength(1);
      expect((await t.app.inject({ url: '/api/accounts/sessions' })).statusCode).toBe(401);
    });

    it('lets an administrator end every sign-in of a user of their company only', async () => {
      const user = await t.createUser();
      const one = await t.tokenFor(user.id);
      const two = await t.tokenFor(user.id);
      const adminHeaders = await t.authHeader();
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/revoke-sessions`,
        headers: adminHeaders,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ revoked: 2 });
      expect((await verify(one.accessToken)).statusCode).toBe(401);
      expect((await verify(two.accessToken)).statusCode).toBe(401);
      const live = await t.db.select().from(signIns).where(eq(signIns.userId, user.id));
      expect(live.every((s) => s.revokedReason === 'ended by an administrator')).toBe(true);

      const plain = await t.createUser();
      const forbidden = await t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/revoke-sessions`,
        headers: await t.authHeader(plain.id),
      });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toMatchObject({ code: 'FORBIDDEN' });

      const other = await t.createCompany(`Other ${database}`);
      const foreign = await t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/revoke-sessions`,
        headers: await t.authHeader(other.adminId),
      });
      expect(foreign.statusCode).toBe(404);
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/users/0190c6a0-0000-7000-8000-000000000000/revoke-sessions',
        headers: adminHeaders,
      });
      expect(missing.statusCode).toBe(404);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/revoke-sessions`,
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('refuses to end the sign-ins of a user holding permissions the caller lacks (403)', async () => {
      await t.createRole(`Sign-in managers ${database}`, ['users.read', 'users.update']);
      const manager = await t.createUser({ roles: [`Sign-in managers ${database}`] });
      const headers = await t.authHeader(manager.id);
      const adminSignIn = await t.tokenFor(t.company.adminId);
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/users/${t.company.adminId}/revoke-sessions`,
        headers,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        success: false,
        code: 'FORBIDDEN',
        message: expect.stringMatching(/end the sign-ins of this user.*roles\.update/),
      });
      expect((await verify(adminSignIn.accessToken)).statusCode).toBe(200);
      // An equal or weaker user, and the manager themselves: allowed.
      const peer = await t.createUser({ roles: [`Sign-in managers ${database}`] });
      const plain = await t.createUser();
      for (const target of [peer.id, plain.id, manager.id]) {
        await t.tokenFor(target);
        const answer = await t.app.inject({
          method: 'POST',
          url: `/api/users/${target}/revoke-sessions`,
          headers: target === manager.id ? await t.authHeader(manager.id) : headers,
        });
        expect(answer.statusCode, target).toBe(200);
        expect(answer.json().data.revoked).toBeGreaterThanOrEqual(1);
      }
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'user.revoke-sessions'),
            eq(auditEvents.entityId, t.company.adminId),
          ),
        );
      expect(event).toBeUndefined();
    });
  });
});
