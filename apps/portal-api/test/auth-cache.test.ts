import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

/**
 * The auth cache (ADR 004) keeps what every request checks; these tests WARM it first (two requests)
 * and then prove each kind of change applies on the very next request.
 */
describe.each(DATABASES)(
  'auth cache on %s: every change applies on the next request',
  (database) => {
    let t: TestApp;
    let admin: { authorization: string };
    beforeAll(async () => {
      t = await buildTestApp({ database });
      admin = await t.authHeader();
    });
    afterAll(() => t?.close());

    const verify = (headers: { authorization: string }) =>
      t.app.inject({ url: '/api/accounts/verify', headers });
    const listRoles = (headers: { authorization: string }) =>
      t.app.inject({ url: '/api/roles', headers });

    /** A user holding a fresh role with `roles.read`, signed in, with the cache warmed. */
    async function warmUser() {
      const name = `reader-${Math.random().toString(36).slice(2)}`;
      const roleId = await t.createRole(name, ['roles.read']);
      const user = await t.createUser({ roles: [name] });
      const signedIn = await t.tokenFor(user.id);
      const headers = { authorization: `Bearer ${signedIn.accessToken}` };
      for (let i = 0; i < 2; i++) {
        expect((await verify(headers)).statusCode).toBe(200);
        expect((await listRoles(headers)).statusCode).toBe(200);
      }
      return { user, signedIn, headers, roleId };
    }

    it('a cached answer is served again without a change (the cache is in use)', async () => {
      const { headers } = await warmUser();
      const before = t.app.authCache.size;
      expect(before).toBeGreaterThan(0);
      expect((await verify(headers)).statusCode).toBe(200);
      expect(t.app.authCache.size).toBe(before);
    });

    it("a role losing a permission (through the API): the holder's next request is forbidden", async () => {
      const { headers, roleId } = await warmUser();
      const role = (await t.app.inject({ url: `/api/roles/${roleId}`, headers: admin })).json()
        .data as { version: number };
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/roles/${roleId}`,
        headers: admin,
        payload: { version: role.version, permissionIds: [] },
      });
      expect(patched.statusCode).toBe(200);
      expect((await listRoles(headers)).statusCode).toBe(403);
      expect((await verify(headers)).json().data.permissions).toEqual([]);
    });

    it('a user locked through the API: their next request answers 401', async () => {
      const { headers, user } = await warmUser();
      const current = (await t.app.inject({ url: `/api/users/${user.id}`, headers: admin })).json()
        .data as { version: number };
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${user.id}`,
        headers: admin,
        payload: { version: current.version, status: 'locked' },
      });
      expect(patched.statusCode).toBe(200);
      expect((await verify(headers)).statusCode).toBe(401);
    });

    it('a write straight to the database (no HTTP route) applies on the next request', async () => {
      const { headers, user } = await warmUser();
      await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, user.id));
      expect((await verify(headers)).statusCode).toBe(401);
    });

    it('a write inside a transaction applies once it committed, not before', async () => {
      const { headers, user } = await warmUser();
      await t.db.transaction(async (tx) => {
        await tx.update(users).set({ userFirstName: 'Renamed' }).where(eq(users.id, user.id));
      });
      expect((await verify(headers)).json().data.userFirstName).toBe('Renamed');
      // A rolled-back change is not seen either.
      await expect(
        t.db.transaction(async (tx) => {
          await tx.update(users).set({ userFirstName: 'Never' }).where(eq(users.id, user.id));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await verify(headers)).json().data.userFirstName).toBe('Renamed');
    });

    it('PATCH /accounts/me: the next verify answers the new name', async () => {
      const { headers } = await warmUser();
      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/api/accounts/me',
        headers,
        payload: { userFirstName: 'Newname' },
      });
      expect(patched.statusCode).toBe(200);
      expect((await verify(headers)).json().data.userFirstName).toBe('Newname');
    });

    it('signout, ending one sign-in and a password change: the next request answers 401', async () => {
      const first = await warmUser();
      await t.app.inject({ method: 'POST', url: '/api/accounts/signout', headers: first.headers });
      expect((await verify(first.headers)).statusCode).toBe(401);

      const second = await warmUser();
      const other = await t.tokenFor(second.user.id);
      const otherHeaders = { authorization: `Bearer ${other.accessToken}` };
      expect((await verify(otherHeaders)).statusCode).toBe(200);
      const ended = await t.app.inject({
        method: 'DELETE',
        url: `/api/accounts/sessions/${other.signInId}`,
        headers: second.headers,
      });
      expect(ended.json().data).toEqual({ revoked: 1 });
      expect((await verify(otherHeaders)).statusCode).toBe(401);
      expect((await verify(second.headers)).statusCode).toBe(200);

      const third = await warmUser();
      const another = await t.tokenFor(third.user.id);
      const anotherHeaders = { authorization: `Bearer ${another.accessToken}` };
      expect((await verify(anotherHeaders)).statusCode).toBe(200);
      const changed = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/change-password',
        headers: third.headers,
        payload: { currentPassword: third.user.password, newPassword: 'a brand new passphrase 42' },
      });
      expect(changed.statusCode).toBe(200);
      expect((await verify(anotherHeaders)).statusCode).toBe(401);
    });

    it('an administrator ending every sign-in of a user: the next request answers 401', async () => {
      const { headers, user } = await warmUser();
      const ended = await t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/revoke-sessions`,
        headers: admin,
      });
      expect(ended.statusCode).toBe(200);
      expect((await verify(headers)).statusCode).toBe(401);
    });

    it('a token that failed verification is never cached as valid', async () => {
      const { signedIn } = await warmUser();
      const at = signedIn.accessToken.length - 10;
      const flipped = signedIn.accessToken[at] === 'A' ? 'B' : 'A';
      const tampered = `${signedIn.accessToken.slice(0, at)}${flipped}${signedIn.accessToken.slice(at + 1)}`;
      for (let i = 0; i < 2; i++) {
        expect((await verify({ authorization: `Bearer ${tampered}` })).statusCode).toBe(401);
      }
    });
  },
);

describe('auth cache with several processes on PostgreSQL', () => {
  let t: TestApp;
  let other: pg.Client;
  beforeAll(async () => {
    t = await buildTestApp({ database: 'postgres', env: { AUTH_CACHE_TTL_MS: '150' } });
    other = new pg.Client({ connectionString: t.config.DATABASE_URL });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  it("another process's write applies once AUTH_CACHE_TTL_MS has passed", async () => {
    const user = await t.createUser();
    const signedIn = await t.tokenFor(user.id);
    const headers = { authorization: `Bearer ${signedIn.accessToken}` };
    const verify = () => t.app.inject({ url: '/api/accounts/verify', headers });
    expect((await verify()).statusCode).toBe(200);
    // "Another portal process": a connection this process's client does not see.
    await other.query(`update users set status = 'locked' where id = $1`, [user.id]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await verify()).statusCode).toBe(401);
  });

  it('AUTH_CACHE_TTL_MS=0 turns the cache off', async () => {
    const off = await buildTestApp({ database: 'postgres', env: { AUTH_CACHE_TTL_MS: '0' } });
    try {
      const headers = await off.authHeader();
      for (let i = 0; i < 3; i++) {
        expect((await off.app.inject({ url: '/api/accounts/verify', headers })).statusCode).toBe(
          200,
        );
      }
      expect(off.app.authCache.size).toBe(0);
    } finally {
      await off.close();
    }
  });
});
