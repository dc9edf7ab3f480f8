import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, cleanup, tempDir } from './helper';
import { startPortal, type PortalProcess } from './portal-process';

// A sign-in the real portal ends must stop working on the real Power 7 API within seconds, not when
// its access token expires (15 minutes): Power 7 polls the portal's list of ended sign-ins.
const adminPassword = 'ended-sign-ins-test-passphrase';
/** The poll interval (2 s) plus a fetch on a busy machine. */
const BOUND_MS = 6_000;
let dir: string;
let portal: PortalProcess;
let power7: FastifyInstance;

interface Pair {
  accessToken: string;
  refreshToken: string;
}

const portalCall = (...args: Parameters<PortalProcess['call']>) => portal.call(...args);
const signIn = (userName: string, password: string) => portal.signIn(userName, password);

/** Power 7's status for this token: 401 once the sign-in is known to have ended. */
async function power7Status(accessToken: string): Promise<number> {
  const answer = await power7.inject({
    url: '/api/power7/processing-status/',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return answer.statusCode;
}

/** Milliseconds until Power 7 refuses the token (fails past the bound). */
async function refusedWithin(accessToken: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < BOUND_MS) {
    if ((await power7Status(accessToken)) === 401) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Power 7 still accepted the token after ${BOUND_MS} ms`);
}

beforeAll(async () => {
  dir = await tempDir('p7-ended-');
  portal = await startPortal({ DATA_DIR: join(dir, 'data'), DEMO_ADMIN_PASSWORD: adminPassword });
  power7 = await buildTestApp({ DATA_DIR: join(dir, 'p7'), JWKS_URL: portal.jwksUrl });
}, 150_000);

afterAll(async () => {
  await power7?.close();
  await portal?.stop();
  if (dir) await cleanup(dir);
});

describe('ended sign-ins reach Power 7 within seconds', () => {
  it('after a sign-out', async () => {
    const { accessToken } = await signIn('admin', adminPassword);
    expect(await power7Status(accessToken)).not.toBe(401);
    await portalCall('POST', '/api/accounts/signout', {}, accessToken);
    const elapsed = await refusedWithin(accessToken);
    console.info(`sign-out refused by Power 7 after ${elapsed} ms`);
    const answer = await power7.inject({
      url: '/api/power7/processing-status/',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(answer.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED', status: 401 });
  });

  it('after a password change (other sign-ins), a user set inactive and a refresh-token reuse', async () => {
    const admin = await signIn('admin', adminPassword);
    const userPassword = 'a-user-passphrase-for-ended-sign-ins';
    const created = await portalCall(
      'POST',
      '/api/users',
      {
        userName: 'ended-user',
        email: 'ended-user@example.test',
        userFirstName: 'Ended',
        userLastName: 'User',
        password: userPassword,
      },
      admin.accessToken,
    );
    expect(created.status).toBe(201);

    // Password change: the other sign-in ends, the one that changed it goes on.
    const changer = await signIn('ended-user', userPassword);
    const other = await signIn('ended-user', userPassword);
    const newPassword = 'the-new-passphrase-for-ended-user';
    const changed = await portalCall(
      'POST',
      '/api/accounts/change-password',
      { currentPassword: userPassword, newPassword },
      changer.accessToken,
    );
    expect(changed.status).toBe(200);
    await refusedWithin(other.accessToken);
    expect(await power7Status(changer.accessToken)).not.toBe(401);

    // Set inactive by an administrator: every sign-in of the user ends.
    const current = await portalCall(
      'GET',
      `/api/users/${String(created.data._id)}`,
      undefined,
      admin.accessToken,
    );
    const inactive = await portalCall(
      'PATCH',
      `/api/users/${String(created.data._id)}`,
      { version: current.data.version, status: 'inactive' },
      admin.accessToken,
    );
    expect(inactive.status).toBe(200);
    await refusedWithin(changer.accessToken);

    // Reuse of a spent refresh token ends the whole sign-in, the newest access token included (a
    // replay after the legitimate client moved on; a retry within the reuse grace is answered, ADR 006).
    const first = await signIn('admin', adminPassword);
    const rotated = await portalCall('POST', '/api/accounts/rotate-token', {
      refreshToken: first.refreshToken,
    });
    expect(rotated.status).toBe(200);
    const onward = await portalCall('POST', '/api/accounts/rotate-token', {
      refreshToken: (rotated.data as unknown as Pair).refreshToken,
    });
    expect(onward.status).toBe(200);
    const newest = onward.data as unknown as Pair;
    expect(await power7Status(newest.accessToken)).not.toBe(401);
    const reused = await portalCall('POST', '/api/accounts/rotate-token', {
      refreshToken: first.refreshToken,
    });
    expect(reused.status).toBe(401);
    await refusedWithin(newest.accessToken);
  }, 60_000);
});
