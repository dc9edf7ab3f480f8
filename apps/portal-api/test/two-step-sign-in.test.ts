import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, totpFactors } from '../src/db/schema';
import { buildTestApp, type TestApp } from './helper';
import { awayFromStepEdge, base32Bytes, stepNow, totp } from './totp-codes';

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { amr?: string[] };

describe('two-step sign-in (issue 28, ADR 011)', () => {
  let t: TestApp;
  let addresses = 0;
  const freshAddress = () => `10.28.${Math.floor(++addresses / 250)}.${addresses % 250}`;

  beforeAll(async () => {
    t = await buildTestApp({ env: { MFA_RATE_LIMIT: '5' } });
  }, 60_000);
  afterAll(() => t?.close());

  const post = (
    url: string,
    payload: unknown,
    options: {
      headers?: Record<string, string>;
      ip?: string;
      cookies?: Record<string, string>;
    } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: options.headers,
      cookies: options.cookies,
      remoteAddress: options.ip ?? '10.28.255.1',
    });
  const password = (
    user: { userName: string; password: string },
    ip?: string,
    cookies?: Record<string, string>,
  ) =>
    post(
      '/api/accounts/sign-in',
      { userName: user.userName, password: user.password },
      { ip, cookies },
    );
  const mfaTokenOf = async (
    user: { userName: string; password: string },
    ip?: string,
    cookies?: Record<string, string>,
  ) => {
    const answer = await password(user, ip, cookies);
    expect(answer.statusCode).toBe(200);
    const data = answer.json().data;
    expect(data).toMatchObject({ mfaRequired: true, enrolmentRequired: false });
    expect(data.accessToken).toBeUndefined();
    return data.mfaToken as string;
  };
  const auditOf = (userId: string, action: string) =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)));

  /** A user with a confirmed authenticator app: their secret and recovery codes. */
  async function enrolledUser(roles: string[] = []) {
    const user = await t.createUser({ roles });
    const headers = await t.authHeader(user.id);
    const setup = await post(
      '/api/accounts/mfa/totp/setup',
      { currentPassword: user.password },
      { headers },
    );
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json().data as { secret: string; otpauthUrl: string };
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(otpauthUrl).toContain('algorithm=SHA1&digits=6&period=30');
    await awayFromStepEdge();
    const confirm = await post(
      '/api/accounts/mfa/totp/confirm',
      { code: totp(secret) },
      { headers },
    );
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes, signIn } = confirm.json().data;
    expect(signIn).toBeNull();
    return { ...user, headers, secret, recoveryCodes: recoveryCodes as string[] };
  }

  it('sets up the app behind the current password and turns it on with a code from it', async () => {
    const user = await t.createUser();
    const headers = await t.authHeader(user.id);
    const wrong = await post(
      '/api/accounts/mfa/totp/setup',
      { currentPassword: 'not-the-password' },
      { headers },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].field).toBe('currentPassword');
    const setup = await post(
      '/api/accounts/mfa/totp/setup',
      { currentPassword: user.password },
      { headers },
    );
    const { secret } = setup.json().data;
    expect(base32Bytes(secret)).toHaveLength(20);
    // Before confirming, the password alone still signs in.
    expect((await password(user)).json().data.accessToken).toEqual(expect.any(String));
    await awayFromStepEdge();
    const badCode = await post(
      '/api/accounts/mfa/totp/confirm',
      { code: totp(secret, stepNow() + 5) },
      { headers },
    );
    expect(badCode.statusCode).toBe(400);
    const confirm = await post(
      '/api/accounts/mfa/totp/confirm',
      { code: totp(secret) },
      { headers },
    );
    const codes = confirm.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await auditOf(user.id, 'account.mfa-enrolled')).toHaveLength(1);
    const status = await t.app.inject({ method: 'GET', url: '/api/accounts/mfa', headers });
    expect(status.json().data).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: [],
      required: false,
    });
  });

  it('asks for the second step after the password, then answers tokens with amr pwd+otp; the mfaToken is used up', async () => {
    const user = await enrolledUser();
    const first = await password(user);
    expect(first.json().data).toEqual({
      mfaRequired: true,
      enrolmentRequired: false,
      mfaToken: expect.any(String),
      methods: ['totp', 'recovery-code'],
    });
    // No tokens and no cookies before the second step.
    expect(first.cookies.map((c) => c.name)).toEqual([]);
    const mfaToken = first.json().data.mfaToken;
    await awayFromStepEdge();
    // The confirm used this step's code: the next step's is the one to give.
    const second = await post('/api/accounts/sign-in/mfa', {
      mfaToken,
      code: totp(user.secret, stepNow() + 1),
    });
    expect(second.statusCode).toBe(200);
    const data = second.json().data;
    expect(data.userName).toBe(user.userName);
    expect(claimsOf(data.accessToken).amr).toEqual(['pwd', 'otp']);
    expect(second.cookies.map((c) => c.name).sort()).toEqual(['refreshToken', 'signInDevice']);
    // Rotation keeps how the sign-in was proven.
    const rotated = await post('/api/accounts/rotate-token', { refreshToken: data.refreshToken });
    expect(claimsOf(rotated.json().data.accessToken).amr).toEqual(['pwd', 'otp']);
    const again = await post('/api/accounts/sign-in/mfa', {
      mfaToken,
      code: totp(user.secret, stepNow() + 1),
    });
    expect(again.statusCode).toBe(401);
    // A password-only account's tokens say pwd.
    const plain = await t.createUser();
    expect(claimsOf((await password(plain)).json().data.accessToken).amr).toEqual(['pwd']);
  });

  it('accepts one step either side, not two, and never the same code twice (no replay)', async () => {
    await awayFromStepEdge();
    const early = await enrolledUser();
    // The confirm used step now; the code of the next step is still fine, the one after not.
    const tooFar = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(early),
      code: totp(early.secret, stepNow() + 2),
    });
    expect(tooFar.statusCode).toBe(401);
    await awayFromStepEdge();
    const next = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(early),
      code: totp(early.secret, stepNow() + 1),
    });
    expect(next.statusCode).toBe(200);
    // Replayed on a fresh mfaToken, the same code fails; so does an older one.
    const replay = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(early),
      code: totp(early.secret, stepNow() + 1),
    });
    expect(replay.statusCode).toBe(401);
    const older = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(early),
      code: totp(early.secret),
    });
    expect(older.statusCode).toBe(401);

    // The previous step's code is fine for an account that has not used it; two steps back is not.
    const late = await enrolledUser();
    await t.db.execute(`update totp_factors set last_step = 0 where user_id = '${late.id}'`);
    await awayFromStepEdge();
    const twoBack = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(late),
      code: totp(late.secret, stepNow() - 2),
    });
    expect(twoBack.statusCode).toBe(401);
    const oneBack = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(late),
      code: totp(late.secret, stepNow() - 1),
    });
    expect(oneBack.statusCode).toBe(200);
  });

  it('takes each recovery code once, in any case and spacing', async () => {
    const user = await enrolledUser();
    const [code] = user.recoveryCodes;
    const typed = code!.toUpperCase().replace('-', ' ');
    const used = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(user),
      recoveryCode: typed,
    });
    expect(used.statusCode).toBe(200);
    expect(claimsOf(used.json().data.accessToken).amr).toEqual(['pwd', 'otp']);
    const [event] = await auditOf(user.id, 'account.recovery-code-used');
    expect(event?.after).toEqual({ left: 9 });
    const twice = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(user),
      recoveryCode: code,
    });
    expect(twice.statusCode).toBe(401);
    expect(
      JSON.stringify(
        await t.db.execute(`select code_hash from recovery_codes where user_id = '${user.id}'`),
      ),
    ).not.toContain(code!.replace('-', ''));
  });

  it('answers 429 after 5 wrong codes on one mfaToken, and after 5 on the account across tokens', async () => {
    const user = await enrolledUser();
    const ip = freshAddress();
    const mfaToken = await mfaTokenOf(user, ip);
    const wrong = () => totp(user.secret, stepNow() + 7);
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/api/accounts/sign-in/mfa', { mfaToken, code: wrong() }, { ip })).statusCode,
      ).toBe(401);
    await awayFromStepEdge();
    const limited = await post(
      '/api/accounts/sign-in/mfa',
      { mfaToken, code: totp(user.secret) },
      { ip },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A new token does not start afresh: the account's count (clients without its device cookie) is spent.
    const fresh = await post(
      '/api/accounts/sign-in/mfa',
      { mfaToken: await mfaTokenOf(user, freshAddress()), code: totp(user.secret) },
      { ip: freshAddress() },
    );
    expect(fresh.statusCode).toBe(429);
    expect((await auditOf(user.id, 'account.second-step-failed')).length).toBe(5);
  });

  it('spreads over tokens: 3 wrong on one and 2 on another reach the account limit', async () => {
    const user = await enrolledUser();
    const wrong = () => totp(user.secret, stepNow() + 9);
    const a = await mfaTokenOf(user);
    for (let i = 0; i < 3; i++)
      await post('/api/accounts/sign-in/mfa', { mfaToken: a, code: wrong() });
    const b = await mfaTokenOf(user);
    for (let i = 0; i < 2; i++)
      await post('/api/accounts/sign-in/mfa', { mfaToken: b, code: wrong() });
    const c = await mfaTokenOf(user);
    expect(
      (
        await post('/api/accounts/sign-in/mfa', {
          mfaToken: c,
          recoveryCode: user.recoveryCodes[0],
        })
      ).statusCode,
    ).toBe(429);
  });

  it('does not let a stranger who knows the password lock the owner out: the owner’s device has its own count', async () => {
    const owner = await enrolledUser();
    // The owner signed in from this browser before: it holds the account's device cookie.
    await awayFromStepEdge();
    const earlier = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(owner),
      code: totp(owner.secret, stepNow() + 1),
    });
    const device = earlier.cookies.find((c) => c.name === 'signInDevice')!.value;
    // A stranger with the password spends the account's allowance from elsewhere.
    for (let i = 0; i < 6; i++) {
      const ip = freshAddress();
      await post(
        '/api/accounts/sign-in/mfa',
        { mfaToken: await mfaTokenOf(owner, ip), code: totp(owner.secret, stepNow() + 11) },
        { ip },
      );
    }
    const stranger = freshAddress();
    expect(
      (
        await post(
          '/api/accounts/sign-in/mfa',
          { mfaToken: await mfaTokenOf(owner, stranger), recoveryCode: owner.recoveryCodes[1] },
          { ip: stranger },
        )
      ).statusCode,
    ).toBe(429);
    // The owner, with their device cookie, still signs in.
    const cookies = { signInDevice: device };
    const own = await post(
      '/api/accounts/sign-in/mfa',
      {
        mfaToken: await mfaTokenOf(owner, undefined, cookies),
        recoveryCode: owner.recoveryCodes[2],
      },
      { cookies },
    );
    expect(own.statusCode).toBe(200);
    // A forged device cookie is no device: it shares the strangers' count.
    const forged = { signInDevice: `${device.slice(0, -4)}AAAA` };
    expect(
      (
        await post(
          '/api/accounts/sign-in/mfa',
          {
            mfaToken: await mfaTokenOf(owner, undefined, forged),
            recoveryCode: owner.recoveryCodes[3],
          },
          { cookies: forged },
        )
      ).statusCode,
    ).toBe(429);
  });

  it('replaces the recovery codes with the password and a code: the old ones stop working; audited', async () => {
    const user = await enrolledUser();
    await awayFromStepEdge();
    const renew = (code: string, currentPassword = user.password, headers = user.headers) =>
      post('/api/accounts/mfa/recovery-codes', { currentPassword, code }, { headers });
    const wrongCode = await renew(totp(user.secret, stepNow() + 4));
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().errors[0].field).toBe('code');
    const renewed = await renew(totp(user.secret, stepNow() + 1));
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => user.recoveryCodes.includes(c))).toEqual([]);
    const old = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(user),
      recoveryCode: user.recoveryCodes[0],
    });
    expect(old.statusCode).toBe(401);
    const used = await post('/api/accounts/sign-in/mfa', {
      mfaToken: await mfaTokenOf(user),
      recoveryCode: fresh[0],
    });
    expect(used.statusCode).toBe(200);
    expect(await auditOf(user.id, 'account.recovery-codes-renewed')).toHaveLength(1);

    // without the app there is nothing to renew
    const plain = await t.createUser();
    const none = await renew('123456', plain.password, await t.authHeader(plain.id));
    expect(none.statusCode).toBe(409);
  });

  it('turns the app off with the password and a code; audited', async () => {
    const user = await enrolledUser();
    await awayFromStepEdge();
    const wrongCode = await post(
      '/api/accounts/mfa/totp/disable',
      { currentPassword: user.password, code: totp(user.secret, stepNow() + 4) },
      { headers: user.headers },
    );
    expect(wrongCode.statusCode).toBe(400);
    const off = await post(
      '/api/accounts/mfa/totp/disable',
      { currentPassword: user.password, code: totp(user.secret, stepNow() + 1) },
      { headers: user.headers },
    );
    expect(off.statusCode).toBe(200);
    expect((await password(user)).json().data.accessToken).toEqual(expect.any(String));
    expect(await auditOf(user.id, 'account.mfa-disabled')).toHaveLength(1);
  });

  describe('company policy', () => {
    const putPolicy = async (body: unknown, headers?: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/security/mfa-policy',
        payload: body as object,
        headers: headers ?? (await t.authHeader()),
      });
    afterAll(async () => {
      await putPolicy({ requireFor: 'nobody', permissionCodes: [] });
    });

    it('takes holders of a chosen permission to enrolment after the password, with no tokens until done', async () => {
      expect(
        (await putPolicy({ requireFor: 'permissions', permissionCodes: ['no.such.code'] }))
          .statusCode,
      ).toBe(400);
      expect((await putPolicy({ requireFor: 'permissions', permissionCodes: [] })).statusCode).toBe(
        400,
      );
      const saved = await putPolicy({
        requireFor: 'permissions',
        permissionCodes: ['users.update'],
      });
      expect(saved.statusCode).toBe(200);
      const [changed] = await t.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'company.mfa-policy-change'));
      expect(changed?.after).toEqual({
        requireFor: 'permissions',
        permissionCodes: ['users.update'],
      });

      const plain = await t.createUser();
      expect((await password(plain)).json().data.accessToken).toEqual(expect.any(String));

      const manager = await t.createUser({ roles: ['Administrator'] });
      const first = await password(manager);
      expect(first.json().data).toEqual({
        mfaRequired: true,
        enrolmentRequired: true,
        mfaToken: expect.any(String),
        methods: [],
      });
      expect(first.cookies).toEqual([]);
      const { mfaToken } = first.json().data;
      // The enrolment token opens nothing else: not an access token, not a second step.
      const asBearer = await t.app.inject({
        method: 'GET',
        url: '/api/accounts/verify',
        headers: { authorization: `Bearer ${mfaToken}` },
      });
      expect(asBearer.statusCode).toBe(401);
      expect(
        (await post('/api/accounts/sign-in/mfa', { mfaToken, code: '123456' })).statusCode,
      ).toBe(401);
      const setup = await post('/api/accounts/mfa/totp/setup', { mfaToken });
      expect(setup.statusCode).toBe(200);
      await awayFromStepEdge();
      const confirm = await post('/api/accounts/mfa/totp/confirm', {
        mfaToken,
        code: totp(setup.json().data.secret),
      });
      expect(confirm.statusCode).toBe(200);
      const { signIn, recoveryCodes } = confirm.json().data;
      expect(recoveryCodes).toHaveLength(10);
      expect(signIn.userName).toBe(manager.userName);
      expect(claimsOf(signIn.accessToken).amr).toEqual(['pwd', 'otp']);
      const [enrolled] = await auditOf(manager.id, 'account.mfa-enrolled');
      expect(enrolled?.after).toEqual({ method: 'totp', enforced: true });
      // Used up: the enrolment token does not sign in twice.
      expect((await post('/api/accounts/mfa/totp/setup', { mfaToken })).statusCode).toBe(401);
      // Required: the app cannot be turned off while it is the only second step.
      const status = await t.app.inject({
        method: 'GET',
        url: '/api/accounts/mfa',
        headers: { authorization: `Bearer ${signIn.accessToken}` },
      });
      expect(status.json().data.required).toBe(true);
    });

    it('requires everyone, and keeps the last second step of a user who must have one', async () => {
      const user = await enrolledUser();
      expect((await putPolicy({ requireFor: 'everyone', permissionCodes: [] })).statusCode).toBe(
        200,
      );
      const fresh = await t.createUser();
      expect((await password(fresh)).json().data.enrolmentRequired).toBe(true);
      await awayFromStepEdge();
      const off = await post(
        '/api/accounts/mfa/totp/disable',
        { currentPassword: user.password, code: totp(user.secret, stepNow() + 1) },
        { headers: user.headers },
      );
      expect(off.statusCode).toBe(409);
    });

    it('tells who has a second step and who a policy would ask to set one up, in the caller’s company only (issue 43)', async () => {
      const acme = await t.createCompany('Coverage Acme');
      const admin = await t.authHeader(acme.adminId);
      const withApp = await t.createUser({ companyId: acme.companyId });
      await t.db.insert(totpFactors).values({
        userId: withApp.id,
        companyId: acme.companyId,
        secret: 'sealed elsewhere',
        confirmedAt: new Date(),
      });
      const halfSetUp = await t.createUser({ companyId: acme.companyId });
      // an app being set up (not confirmed) is no second step yet
      await t.db.insert(totpFactors).values({
        userId: halfSetUp.id,
        companyId: acme.companyId,
        secret: 'sealed elsewhere',
      });
      const second = await t.createUser({ companyId: acme.companyId, roles: ['Administrator'] });
      await t.createUser({ companyId: acme.companyId, status: 'inactive' });
      const coverage = (query: string, headers = admin) =>
        t.app.inject({ url: `/api/security/mfa-policy/coverage?${query}`, headers });

      const everyone = await coverage('requireFor=everyone');
      expect(everyone.statusCode).toBe(200);
      const data = everyone.json().data;
      expect(data).toMatchObject({
        activeUsers: 4,
        withSecondStep: { count: 1, sample: [{ _id: withApp.id, userName: withApp.userName }] },
        required: 4,
        toSetUp: { count: 3 },
      });
      expect(data.toSetUp.sample.map((u: { _id: string }) => u._id).sort()).toEqual(
        [acme.adminId, halfSetUp.id, second.id].sort(),
      );
      expect(
        (await coverage('requireFor=permissions&permissionCodes=users.update,nothing.here')).json()
          .data,
      ).toMatchObject({ required: 2, toSetUp: { count: 2 }, withSecondStep: { count: 1 } });
      expect((await coverage('requireFor=nobody')).json().data).toMatchObject({
        required: 0,
        toSetUp: { count: 0, sample: [] },
      });
      // The Demo Company sees none of Acme's users.
      const demo = (await coverage('requireFor=everyone', await t.authHeader())).json().data;
      expect(JSON.stringify(demo)).not.toContain(withApp.id);
      // users.read is needed; a bad policy is refused in the envelope.
      const plain = await t.createUser({ companyId: acme.companyId });
      expect((await coverage('requireFor=everyone', await t.authHeader(plain.id))).statusCode).toBe(
        403,
      );
      const bad = await coverage('requireFor=some');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    });

    it('needs users.update to change the policy', async () => {
      const reader = await t.createUser();
      expect(
        (
          await putPolicy(
            { requireFor: 'nobody', permissionCodes: [] },
            await t.authHeader(reader.id),
          )
        ).statusCode,
      ).toBe(403);
    });
  });

  describe('administrator reset', () => {
    const verify = (accessToken: string) =>
      t.app.inject({
        url: '/api/accounts/verify',
        headers: { authorization: `Bearer ${accessToken}` },
      });
    const rotate = (refreshToken: string) => post('/api/accounts/rotate-token', { refreshToken });
    const putPolicy = async (body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/security/mfa-policy',
        payload: body as object,
        headers: await t.authHeader(),
      });

    it('ends every sign-in of the user and says what their next sign-in asks, by the policy (issue 43)', async () => {
      const admin = await t.authHeader();
      for (const policy of ['nobody', 'everyone'] as const) {
        expect((await putPolicy({ requireFor: policy, permissionCodes: [] })).statusCode).toBe(200);
        const user = await enrolledUser();
        const one = await t.tokenFor(user.id);
        const two = await t.tokenFor(user.id);
        expect((await verify(one.accessToken)).statusCode).toBe(200);
        const reset = await post(`/api/users/${user.id}/reset-second-step`, {}, { headers: admin });
        expect(reset.statusCode).toBe(200);
        // the two above and the one enrolledUser signed in with
        expect(reset.json().data).toMatchObject({
          signInsEnded: 3,
          enrolmentRequired: policy === 'everyone',
        });
        expect(reset.json().message).toContain('Their sign-ins were ended');
        expect(reset.json().message).toContain(
          policy === 'everyone'
            ? 'the company policy has them set up a new second step at their next sign-in'
            : 'they sign in with their password alone',
        );
        // as after an administrator's "end every sign-in": no access, no refresh
        for (const tokens of [one, two]) {
          expect((await verify(tokens.accessToken)).statusCode).toBe(401);
          expect((await rotate(tokens.refreshToken)).statusCode).toBe(401);
        }
        const [event] = await auditOf(user.id, 'user.second-step-reset');
        expect(event?.after).toMatchObject({ signInsEnded: 3 });
        // and the next sign-in is what the message said
        const next = (await password(user)).json().data;
        if (policy === 'everyone') expect(next.enrolmentRequired).toBe(true);
        else expect(next.accessToken).toEqual(expect.any(String));
      }
      expect((await putPolicy({ requireFor: 'nobody', permissionCodes: [] })).statusCode).toBe(200);
    });

    it('removes a user’s second step, audited; never for a more powerful user or oneself', async () => {
      const user = await enrolledUser();
      const admin = await t.authHeader();
      const reset = await post(`/api/users/${user.id}/reset-second-step`, {}, { headers: admin });
      expect(reset.statusCode).toBe(200);
      expect(reset.json().data).toMatchObject({ totp: true, recoveryCodes: 10, passkeys: 0 });
      expect((await password(user)).json().data.accessToken).toEqual(expect.any(String));
      const [event] = await auditOf(user.id, 'user.second-step-reset');
      expect(event?.actorId).toBe(t.company.adminId);

      // A helpdesk role with users.update but less than an Administrator holds.
      const { permissionIds } = await t.accessFixture();
      const role = await t.app.inject({
        method: 'POST',
        url: '/api/roles',
        headers: admin,
        payload: {
          name: 'MFA helpdesk',
          permissionIds: [permissionIds['users.read'], permissionIds['users.update']],
        },
      });
      expect(role.statusCode).toBe(201);
      const helpdesk = await t.createUser({ roles: ['MFA helpdesk'] });
      const helpdeskAuth = await t.authHeader(helpdesk.id);
      const stronger = await enrolledUser(['Administrator']);
      const escalation = await post(
        `/api/users/${stronger.id}/reset-second-step`,
        {},
        { headers: helpdeskAuth },
      );
      expect(escalation.statusCode).toBe(403);
      expect((await password(stronger)).json().data.mfaRequired).toBe(true);
      expect(
        (await post(`/api/users/${helpdesk.id}/reset-second-step`, {}, { headers: helpdeskAuth }))
          .statusCode,
      ).toBe(403);
      const peer = await enrolledUser();
      expect(
        (await post(`/api/users/${peer.id}/reset-second-step`, {}, { headers: helpdeskAuth }))
          .statusCode,
      ).toBe(200);
      // Another company's user is not found.
      const other = await t.createCompany('Second step elsewhere');
      expect(
        (await post(`/api/users/${other.adminId}/reset-second-step`, {}, { headers: admin }))
          .statusCode,
      ).toBe(404);
    });
  });
});
