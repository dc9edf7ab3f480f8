import { and, eq, isNull } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { startTestRedis, type TestRedis } from '@pa/server-kit/testing/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../src/db/schema';
import { ADMIN_PASSWORD, buildTestApp, postgresDatabase, type TestApp } from './helper';

/**
 * Two portal processes on one PostgreSQL database and one Redis (issue #18): the sign-in limits are
 * counted in Redis, so failures on one process count on the other; a Redis outage shows in
 * `/api/ready/` and sign-ins go on (each process counts in its memory until Redis is back).
 */
describe('two portal processes on one PostgreSQL and one Redis', () => {
  let redis: TestRedis;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    redis = await startTestRedis();
    const env = {
      DATABASE_URL: await postgresDatabase(),
      REDIS_URL: redis.url,
      SIGNIN_RATE_LIMIT_ACCOUNT: '4',
    };
    // one after the other: the first migrates and seeds, the second finds it done
    first = await buildTestApp({ database: 'postgres', env });
    second = await buildTestApp({ database: 'postgres', env });
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis?.stop();
  });

  const signIn = (app: TestApp, password: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { userName: 'admin', password },
      remoteAddress: '10.20.30.40',
    });
  const ready = async (app: TestApp) => {
    const answer = await app.app.inject({ url: '/api/ready/' });
    return { status: answer.statusCode, body: answer.json() };
  };

  it('reports Redis in the readiness check', async () => {
    const answer = await ready(first);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('redis');
  });

  it('counts the failures of both processes together', async () => {
    expect((await signIn(first, 'wrong-password-1')).statusCode).toBe(401);
    expect((await signIn(second, 'wrong-password-2')).statusCode).toBe(401);
    expect((await signIn(first, 'wrong-password-3')).statusCode).toBe(401);
    expect((await signIn(second, 'wrong-password-4')).statusCode).toBe(401);
    // four failures in all: each process saw only two, yet both refuse the pair now
    for (const app of [first, second]) {
      const limited = await signIn(app, ADMIN_PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    }
  });

  it('a Redis outage shows in readiness (503 naming redis); sign-in goes on, then recovers', async () => {
    await redis.stop();
    const down = await ready(first);
    expect(down.status).toBe(503);
    expect(JSON.stringify(down.body)).toMatch(/redis/);
    const other = await first.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { userName: 'admin', password: ADMIN_PASSWORD },
      remoteAddress: '10.20.30.99',
    });
    expect(other.statusCode).toBe(200);
    await redis.start();
    await expect.poll(async () => (await ready(first)).status, { timeout: 30_000 }).toBe(200);
  }, 60_000);

  it('rotate one refresh token on both processes at once: one live token remains', async () => {
    for (let round = 0; round < 3; round++) {
      const signedIn = await first.signIn('admin', ADMIN_PASSWORD);
      const answers = await Promise.all(
        [first, second].map((app) =>
          app.app.inject({
            method: 'POST',
            url: '/api/accounts/rotate-token',
            payload: { refreshToken: signedIn.refreshToken },
          }),
        ),
      );
      // The row lock on the sign-in orders them: the second is a retry within the reuse grace
      // (ADR 006), answered with a new pair that withdraws the first's.
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const live = await first.db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.familyId, String(decodeJwt(signedIn.accessToken).sid)),
            isNull(refreshTokens.usedAt),
          ),
        );
      expect(live).toHaveLength(1);
    }
  });
});
