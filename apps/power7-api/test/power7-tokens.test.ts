// Access tokens and permissions of the Power 7 routes.
import { SignJWT, base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { isEnvelope } from '@pa/contracts/envelope';
import { ALL_PERMS } from './helper';
import { app, auth, csvText, keys, sessionA, tokenA, upload, usePower7App } from './power7-fixture';

usePower7App();

describe('tokens and permissions', () => {
  it('refuses a missing, malformed, tampered, expired, alg:none, foreign or refresh token', async () => {
    const call = (headers: Record<string, string>) =>
      app.inject({ url: '/api/power7/processing-status/', headers });
    expect((await call({})).statusCode).toBe(401);
    expect((await call({ authorization: 'Token abc' })).statusCode).toBe(401);
    const [h, p, s] = tokenA.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(p!)));
    const forged = base64url.encode(JSON.stringify({ ...claims, sub: 'someone-else' }));
    expect((await call(auth(`${h}.${forged}.${s}`))).statusCode).toBe(401);
    const expired = await keys.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const res = await call(auth(expired));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/);
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`;
    expect((await call(auth(none))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({}, { audience: 'other' })))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({}, { issuer: 'evil' })))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({ typ: 'refresh' })))).statusCode).toBe(401);
    // a token signed by a key the portal never published
    const { generateKeyPair } = await import('jose');
    const other = await generateKeyPair('EdDSA');
    const stranger = await new SignJWT({ cid: 'company-a', perms: ALL_PERMS, typ: 'access' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'test-key' })
      .setSubject('user-a')
      .setIssuer('power-analyzer-portal')
      .setAudience('power-analyzer')
      .setExpirationTime('5m')
      .sign(other.privateKey);
    const strangerRes = await call(auth(stranger));
    expect(strangerRes.statusCode).toBe(401);
    expect(isEnvelope(strangerRes.json())).toBe(true);
    expect((await call(auth(tokenA))).statusCode).toBe(200);
  });

  it('needs power7.run to upload and filter, power7.download for winners and downloads, power7.sessions.clear to clear', async () => {
    const downloader = await keys.sign({ perms: ['power7.download'] });
    const runner = await keys.sign({ perms: ['power7.run'] });
    expect((await upload(downloader, csvText)).statusCode).toBe(403);
    const filter = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(downloader),
      payload: {},
    });
    expect(filter.statusCode).toBe(403);
    expect(filter.json().code).toBe('FORBIDDEN');
    const combo = '1-2-3-4-5-6-7';
    for (const url of [
      `/api/winners/${combo}/3/`,
      `/api/download/${combo}/3/`,
      `/api/download-all/${combo}/`,
    ]) {
      expect((await app.inject({ url, headers: auth(runner) })).statusCode).toBe(403);
    }
    const clear = await app.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(runner),
    });
    expect(clear.statusCode).toBe(403);
  });

  it("hides another user's and another company's sessions (404)", async () => {
    const userB = await keys.sign({ sub: 'user-b' });
    const otherCompany = await keys.sign({ cid: 'company-b' });
    for (const token of [userB, otherCompany]) {
      const status = await app.inject({
        url: `/api/power7/processing-status/?session=${sessionA}`,
        headers: auth(token),
      });
      expect(status.statusCode).toBe(404);
      const filter = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(token),
        payload: { session: sessionA },
      });
      expect(filter.statusCode).toBe(404);
      const winners = await app.inject({
        url: `/api/winners/1-2-3-4-5-6-7/3/?session=${sessionA}`,
        headers: auth(token),
      });
      expect(winners.statusCode).toBe(404);
      const rejected = await app.inject({
        url: `/api/power7/sessions/${sessionA}/rejected.csv`,
        headers: auth(token),
      });
      expect(rejected.statusCode).toBe(404);
      const list = await app.inject({ url: '/api/power7/sessions/', headers: auth(token) });
      expect(list.json().data.items.map((s: { _id: string }) => s._id)).not.toContain(sessionA);
    }
  });
});
