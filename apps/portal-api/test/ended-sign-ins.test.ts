import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';
import { signIns } from '../src/db/schema';
import { buildTestApp, type TestApp } from './helper';

// The list Power 7 polls (its side: apps/power7-api/test/ended-sign-ins.test.ts, both real services).
describe('GET /api/.well-known/revoked-sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { ACCESS_TOKEN_TTL: '600' } });
  }, 60_000);
  afterAll(() => t?.close());

  const list = async () => {
    const answer = await t.app.inject({ url: '/api/.well-known/revoked-sessions' });
    expect(answer.statusCode).toBe(200);
    return answer.json().data as { sessionIds: string[]; windowSeconds: number };
  };

  it('lists, without authentication, the sign-ins ended within the access-token lifetime only', async () => {
    const live = await t.tokenFor(t.company.adminId);
    const ended = await t.tokenFor(t.company.adminId);
    const long = await t.tokenFor(t.company.adminId);
    await t.app.inject({
      method: 'POST',
      url: '/api/accounts/signout',
      headers: { authorization: `Bearer ${ended.accessToken}` },
    });
    // Ended before any token of it can still be valid: no longer worth listing.
    await t.db
      .update(signIns)
      .set({ revokedAt: new Date(Date.now() - 700_000), revokedReason: 'long ago' })
      .where(eq(signIns.id, long.signInId));
    // Answers are reused for a second; wait for one that saw both changes.
    let data = await list();
    const key = endedSignInKey(ended.signInId);
    for (let i = 0; i < 50 && !data.sessionIds.includes(key); i++) {
      await new Promise((r) => setTimeout(r, 100));
      data = await list();
    }
    expect(data.sessionIds).toContain(key);
    expect(data.sessionIds).not.toContain(endedSignInKey(live.signInId));
    expect(data.sessionIds).not.toContain(endedSignInKey(long.signInId));
    // Opaque: no sign-in id (a UUIDv7, which tells when its user signed in) is published.
    expect(data.sessionIds).not.toContain(ended.signInId);
    expect(data.sessionIds.every((listed) => /^[0-9a-f]{64}$/.test(listed))).toBe(true);
    expect(data.windowSeconds).toBe(660);
    expect(Object.keys(data).sort()).toEqual(['sessionIds', 'windowSeconds']);
  });
});
