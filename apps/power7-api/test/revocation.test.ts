// Revocation fails closed: without a fresh list of ended sign-ins Power 7 is not ready and refuses
// tokens (503), whether the portal was down at its start or went down later for longer than
// REVOCATION_MAX_STALENESS.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { buildTestApp, cleanup, makeKeys, standInPortal, tempDir } from './helper';

let dir: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let app: FastifyInstance;
let port: number;
let portal: Awaited<ReturnType<typeof standInPortal>> | null = null;
const STALENESS_S = 3;

beforeAll(async () => {
  dir = await tempDir('p7-revocation-');
  keys = await makeKeys(dir);
  // the portal is down when Power 7 starts: nothing listens on its port
  port = await freePort();
  app = await buildTestApp({
    DATA_DIR: join(dir, 'data'),
    JWKS_FILE: keys.file,
    JWKS_URL: `http://127.0.0.1:${port}/api/.well-known/jwks.json`,
    REVOCATION_MAX_STALENESS: String(STALENESS_S),
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await portal?.close();
  if (dir) await cleanup(dir);
});

const sessions = async (token: string) =>
  app.inject({ url: '/api/power7/sessions/', headers: { authorization: `Bearer ${token}` } });

function expectCannotCheck(res: Awaited<ReturnType<typeof sessions>>) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', status: 503 });
  expect(res.json().message).toMatch(/cannot check sign-ins/i);
}

describe('the list of ended sign-ins', () => {
  it('started with the portal down: not ready, tokens refused; ready once the portal answers', async () => {
    const token = await keys.sign();
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().message).toContain('ended-sign-ins');
    expectCannotCheck(await sessions(token));
    // without a token the answer is still 401, as ever
    expect((await app.inject({ url: '/api/power7/sessions/' })).statusCode).toBe(401);

    portal = await standInPortal(port);
    await vi.waitFor(
      async () => expect((await app.inject({ url: '/api/ready/' })).statusCode).toBe(200),
      { timeout: 20_000, interval: 100 },
    );
    expect((await sessions(token)).statusCode).toBe(200);

    // a sign-in the portal lists as ended is refused with 401
    portal.state.ended.add('sign-in-1');
    await vi.waitFor(async () => expect((await sessions(token)).statusCode).toBe(401), {
      timeout: 20_000,
      interval: 100,
    });
    portal.state.ended.clear();
    await vi.waitFor(async () => expect((await sessions(token)).statusCode).toBe(200), {
      timeout: 20_000,
      interval: 100,
    });
  }, 60_000);

  it('refuses tokens and is not ready once the list is older than the bound', async () => {
    const token = await keys.sign();
    expect((await sessions(token)).statusCode).toBe(200);
    const down = Date.now();
    portal!.state.up = false;
    await vi.waitFor(async () => expectCannotCheck(await sessions(token)), {
      timeout: 20_000,
      interval: 100,
    });
    // not before the bound: the last list read was at most one poll (2 s) before the portal went down
    expect(Date.now() - down).toBeGreaterThanOrEqual((STALENESS_S - 2) * 1000);
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().errors[0].message).toMatch(
      /ended-sign-ins: the list of ended sign-ins is \d+ s old/,
    );

    portal!.state.up = true;
    await vi.waitFor(async () => expect((await sessions(token)).statusCode).toBe(200), {
      timeout: 20_000,
      interval: 100,
    });
  }, 60_000);
});
