import fs from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import {
  base64url,
  createLocalJWKSet,
  decodeJwt,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, signIns } from '../src/db/schema';
import { hashToken } from '../src/modules/accounts/sign-ins';
import { signAccessToken, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/modules/auth/access-token';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('token suite on %s', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database });
  });
  afterAll(() => t?.close());

  const verify = (token: string) =>
    t.app.inject({ url: '/api/accounts/verify', headers: { authorization: `Bearer ${token}` } });
  const rotate = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/accounts/rotate-token', payload: { refreshToken } });

  /** Claims of a real, live sign-in of the admin, to forge variants of. */
  async function liveClaims() {
    const signedIn = await t.tokenFor(t.company.adminId);
    expect((await verify(signedIn.accessToken)).statusCode).toBe(200);
    return { signedIn, claims: decodeJwt(signedIn.accessToken) };
  }

  /** What `signAccessToken` signs for the sign-in of `claims` (a live token's, decoded). */
  const signingClaims = (claims: JWTPayload) => ({
    sub: String(claims.sub),
    cid: String(claims.cid),
    sid: String(claims.sid),
    name: 'admin',
    perms: [],
    amr: ['pwd'],
  });

  function forge(claims: Record<string, unknown>) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: t.app.signingKeys.kid })
      .sign(t.app.signingKeys.privateKey);
  }

  it('gives every access token an id of its own: two signed in one second for one sign-in differ', async () => {
    const { signedIn, claims } = await liveClaims();
    const sameClaims = signingClaims(claims);
    const [a, b] = await Promise.all([
      signAccessToken(t.app.signingKeys, sameClaims, 60),
      signAccessToken(t.app.signingKeys, sameClaims, 60),
    ]);
    expect(a).not.toBe(b);
    const ids = [a, b, signedIn.accessToken].map((token) => decodeJwt(token).jti);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
    for (const token of [a, b]) expect((await verify(token)).statusCode).toBe(200);
  });

  describe('access tokens: every bad token answers 401', () => {
    it('expired', async () => {
      const { claims } = await liveClaims();
      const expired = await signAccessToken(t.app.signingKeys, signingClaims(claims), -5);
      const response = await verify(expired);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    });

    it('tampered payload or signature', async () => {
      const { signedIn } = await liveClaims();
      const [header, payload, signature] = signedIn.accessToken.split('.') as [
        string,
        string,
        string,
      ];
      const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
      const otherPayload = base64url.encode(JSON.stringify({ ...claims, perms: ['everything'] }));
      expect((await verify(`${header}.${otherPayload}.${signature}`)).statusCode).toBe(401);
      const flipped = signature.startsWith('A')
        ? `B${signature.slice(1)}`
        : `A${signature.slice(1)}`;
      expect((await verify(`${header}.${payload}.${flipped}`)).statusCode).toBe(401);
    });

    it('alg: none', async () => {
      const { claims } = await liveClaims();
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
      const payload = base64url.encode(JSON.stringify(claims));
      expect((await verify(`${header}.${payload}.`)).statusCode).toBe(401);
    });

    it('wrong audience, wrong issuer, wrong typ, missing expiry', async () => {
      const { claims } = await liveClaims();
      const now = Math.floor(Date.now() / 1000);
      const good = { ...claims, iat: now, exp: now + 60 };
      expect((await verify(await forge(good))).statusCode).toBe(200);
      expect((await verify(await forge({ ...good, aud: 'someone-else' }))).statusCode).toBe(401);
      expect((await verify(await forge({ ...good, iss: 'evil-portal' }))).statusCode).toBe(401);
      expect((await verify(await forge({ ...good, typ: 'refresh' }))).statusCode).toBe(401);
      const { exp: _exp, ...noExp } = good;
      expect((await verify(await forge(noExp))).statusCode).toBe(401);
    });

    it('signed by another key with the same kid', async () => {
      const { claims } = await liveClaims();
      const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'EdDSA', kid: t.app.signingKeys.kid })
        .sign(other.privateKey);
      expect((await verify(token)).statusCode).toBe(401);
    });

    it('a refresh token used as an access token', async () => {
      const { signedIn } = await liveClaims();
      expect((await verify(signedIn.refreshToken)).statusCode).toBe(401);
    });

    it('a token of a revoked sign-in, or of a user of another company claim', async () => {
      const { signedIn, claims } = await liveClaims();
      const now = Math.floor(Date.now() / 1000);
      const other = await t.createCompany(`Token Co ${database}`);
      expect(
        (await verify(await forge({ ...claims, cid: other.companyId, iat: now, exp: now + 60 })))
          .statusCode,
      ).toBe(401);
      await t.db
        .update(signIns)
        .set({ revokedAt: new Date() })
        .where(eq(signIns.id, signedIn.signInId));
      expect((await verify(signedIn.accessToken)).statusCode).toBe(401);
    });
  });

  describe('refresh tokens', () => {
    const familyOf = (accessToken: string) => String(decodeJwt(accessToken).sid);
    const revokedReasonOf = async (accessToken: string) =>
      (
        await t.db
          .select()
          .from(signIns)
          .where(eq(signIns.id, familyOf(accessToken)))
      )[0]?.revokedReason;
    const liveTokensOf = async (accessToken: string) =>
      t.db
        .select({ tokenHash: refreshTokens.tokenHash })
        .from(refreshTokens)
        .where(
          and(eq(refreshTokens.familyId, familyOf(accessToken)), isNull(refreshTokens.usedAt)),
        );

    it('rotation replay after the successor was used revokes the whole family', async () => {
      const first = await t.signIn('admin', t.company.adminPassword);
      const second = await rotate(first.refreshToken);
      expect(second.statusCode).toBe(200);
      const third = await rotate(second.json().data.refreshToken);
      expect(third.statusCode).toBe(200);
      const next = third.json().data;
      const replay = await rotate(first.refreshToken);
      expect(replay.statusCode).toBe(401);
      expect(replay.json().message).toBe('Token refresh failed');
      // The thief's replay ended the sign-in: the legitimate newest tokens are dead too.
      expect((await rotate(next.refreshToken)).statusCode).toBe(401);
      expect((await verify(next.accessToken)).statusCode).toBe(401);
      expect(await revokedReasonOf(first.accessToken)).toBe('refresh token reuse');
    });

    it('rotation replay after the reuse grace revokes the whole family', async () => {
      const first = await t.signIn('admin', t.company.adminPassword);
      const second = await rotate(first.refreshToken);
      expect(second.statusCode).toBe(200);
      const next = second.json().data;
      // The first token was spent longer ago than the grace allows.
      await t.db
        .update(refreshTokens)
        .set({ usedAt: new Date(Date.now() - (t.config.REFRESH_REUSE_GRACE + 1) * 1000) })
        .where(eq(refreshTokens.tokenHash, hashToken(first.refreshToken)));
      expect((await rotate(first.refreshToken)).statusCode).toBe(401);
      expect((await rotate(next.refreshToken)).statusCode).toBe(401);
      expect((await verify(next.accessToken)).statusCode).toBe(401);
      expect(await revokedReasonOf(first.accessToken)).toBe('refresh token reuse');
    });

    it('a retry within the grace whose answer was lost is answered again, leaving one live token', async () => {
      const first = await t.signIn('admin', t.company.adminPassword);
      const lost = await rotate(first.refreshToken);
      expect(lost.statusCode).toBe(200);
      // The client never saw `lost` (a reload cut the request off) and presents its token again.
      const retried = await rotate(first.refreshToken);
      expect(retried.statusCode).toBe(200);
      const pair = retried.json().data;
      expect(pair.refreshToken).not.toBe(lost.json().data.refreshToken);
      expect(await liveTokensOf(first.accessToken)).toHaveLength(1);
      expect((await verify(pair.accessToken)).statusCode).toBe(200);
      const onward = await rotate(pair.refreshToken);
      expect(onward.statusCode).toBe(200);
      // The withdrawn answer is spent: presenting it is a replay and ends the sign-in.
      expect((await rotate(lost.json().data.refreshToken)).statusCode).toBe(401);
      expect((await verify(onward.json().data.accessToken)).statusCode).toBe(401);
      expect(await revokedReasonOf(first.accessToken)).toBe('refresh token reuse');
    });

    it('of two concurrent rotations of one token both are answered and exactly one token stays live', async () => {
      for (let round = 0; round < 3; round++) {
        const signedIn = await t.signIn('admin', t.company.adminPassword);
        const answers = await Promise.all([
          rotate(signedIn.refreshToken),
          rotate(signedIn.refreshToken),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
        const live = await liveTokensOf(signedIn.accessToken);
        expect(live).toHaveLength(1);
        const returned = answers.map((a) => hashToken(a.json().data.refreshToken as string));
        expect(returned).toContain(live[0]?.tokenHash);
      }
    });

    it('sign-out then rotate answers 401', async () => {
      const signedIn = await t.signIn('admin', t.company.adminPassword);
      await t.app.inject({
        method: 'POST',
        url: '/api/accounts/signout',
        headers: { authorization: `Bearer ${signedIn.accessToken}` },
      });
      expect((await rotate(signedIn.refreshToken)).statusCode).toBe(401);
    });

    it('a sign-in past its absolute expiry cannot rotate', async () => {
      const signedIn = await t.signIn('admin', t.company.adminPassword);
      await t.db
        .update(signIns)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signIns.id, String(decodeJwt(signedIn.accessToken).sid)));
      expect((await rotate(signedIn.refreshToken)).statusCode).toBe(401);
      expect((await verify(signedIn.accessToken)).statusCode).toBe(401);
    });

    it('stores refresh tokens hashed, never in clear', async () => {
      const signedIn = await t.signIn('admin', t.company.adminPassword);
      const { refreshTokens } = await import('../src/db/schema');
      const rows = await t.db.select().from(refreshTokens);
      expect(JSON.stringify(rows)).not.toContain(signedIn.refreshToken);
    });
  });

  describe('JWKS (the Power 7 API’s view)', () => {
    it('publishes the public key at /api/.well-known/jwks.json and in DATA_DIR/keys/jwks.json', async () => {
      const response = await t.app.inject({ url: '/api/.well-known/jwks.json' });
      expect(response.statusCode).toBe(200);
      const jwks = response.json();
      expect(jwks.keys).toEqual([
        expect.objectContaining({
          kty: 'OKP',
          crv: 'Ed25519',
          alg: 'EdDSA',
          kid: t.app.signingKeys.kid,
        }),
      ]);
      expect(jwks.keys[0]).not.toHaveProperty('d');
      const keysDir = path.join(t.config.DATA_DIR, 'keys');
      expect(JSON.parse(fs.readFileSync(path.join(keysDir, 'jwks.json'), 'utf8'))).toEqual(jwks);
      expect(fs.statSync(path.join(keysDir, 'portal-signing-key.json')).mode & 0o777).toBe(0o600);

      const { accessToken } = await t.signIn('admin', t.company.adminPassword);
      const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks), {
        algorithms: ['EdDSA'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      });
      expect(payload).toMatchObject({ typ: 'access', sub: t.company.adminId });
    });
  });
});
