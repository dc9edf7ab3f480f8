// Two portals and Power 7 on one PostgreSQL database: Power 7 reads the ended sign-ins from the
// portals' own table, so a sign-out through the portal it does not poll is seen while the portal it
// would poll is down, and Power 7 stays ready.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@pa/server-kit/testing/postgres-server';
import { buildTestApp, cleanup, tempDir } from './helper';
import { startPortal, type PortalProcess } from './portal-process';

const password = 'ended-sign-ins-pg-passphrase';
let server: TestPostgres;
let dir: string;
let portalA: PortalProcess;
let portalB: PortalProcess;
let power7: FastifyInstance;

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('shared');
  dir = await tempDir('p7-ended-pg-');
  const shared = { DATABASE_URL: url, DEMO_ADMIN_PASSWORD: password };
  // one after the other: A migrates and seeds; B signs with A's keys (deploy.md: one key set)
  portalA = await startPortal({ ...shared, DATA_DIR: join(dir, 'a') });
  await cp(join(dir, 'a', 'keys'), join(dir, 'b', 'keys'), { recursive: true });
  portalB = await startPortal({ ...shared, DATA_DIR: join(dir, 'b') });
  power7 = await buildTestApp({
    DATA_DIR: join(dir, 'p7'),
    DATABASE_URL: url,
    JWKS_FILE: join(dir, 'a', 'keys', 'jwks.json'),
    // the portal Power 7 would poll without the shared table
    JWKS_URL: portalA.jwksUrl,
  });
}, 180_000);

afterAll(async () => {
  await power7?.close();
  await portalA?.stop();
  await portalB?.stop();
  await server?.stop();
  if (dir) await cleanup(dir);
});

it('sees a sign-out through the other portal while the polled one is down', async () => {
  const { accessToken } = await portalB.signIn('admin', password);
  const status = async () =>
    (
      await power7.inject({
        url: '/api/power7/sessions/',
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).statusCode;
  expect(await status()).toBe(200);

  await portalA.stop();
  const signedOut = await portalB.call('POST', '/api/accounts/signout', {}, accessToken);
  expect(signedOut.status).toBe(200);
  // the poll interval (2 s) plus a query on a busy machine
  await vi.waitFor(async () => expect(await status()).toBe(401), { timeout: 6_000, interval: 50 });
  expect((await power7.inject({ url: '/api/ready/' })).statusCode).toBe(200);
}, 60_000);
