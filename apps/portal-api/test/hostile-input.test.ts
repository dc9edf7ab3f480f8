import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper';

const NUL = '\u0000';

// Text a column cannot hold (PostgreSQL refuses NUL with a 500) is refused up front: 400, the field named.
describe('control characters in text input', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let roleId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.authHeader();
    roleId = await t.createRole('Hostile input target', []);
  }, 60_000);
  afterAll(() => t?.close());

  const expectRefused = (
    response: { statusCode: number; json(): unknown },
    field: string,
  ): void => {
    expect(response.statusCode, JSON.stringify(response.json())).toBe(400);
    const body = response.json() as { code: string; errors: { field: string }[] };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.errors.map((error) => error.field)).toContain(field);
  };

  it('refuses a NUL in a list search or filter, on every list', async () => {
    for (const resource of ['users', 'roles', 'permissions', 'audit-events']) {
      const search = await t.app.inject({
        url: `/api/${resource}?search=${encodeURIComponent(`ad${NUL}min`)}`,
        headers: admin,
      });
      expectRefused(search, 'search');
    }
    const filter = await t.app.inject({
      url: `/api/permissions?filters[group]=${encodeURIComponent(`a${NUL}`)}`,
      headers: admin,
    });
    expectRefused(filter, 'filters.group');
    const auditFilter = await t.app.inject({
      url: `/api/audit-events?filters[action]=${encodeURIComponent(`a\u0007`)}`,
      headers: admin,
    });
    expectRefused(auditFilter, 'filters.action');
  });

  it('refuses control characters in the bodies of users, roles and permissions', async () => {
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        userName: 'nul-user',
        email: 'nul-user@example.test',
        userFirstName: `Nu${NUL}l`,
        userLastName: 'User',
        password: 'a-long-enough-passphrase',
      },
    });
    expectRefused(user, 'userFirstName');
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        userName: 'nul-user',
        email: 'nul-user@example.test',
        userFirstName: 'Nul',
        userLastName: 'User',
        password: `a-long-enough-${NUL}passphrase`,
      },
    });
    expectRefused(password, 'password');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${t.company.adminId}`,
      headers: admin,
      payload: { version: 1, userLastName: `Line\nbreak` },
    });
    expectRefused(patch, 'userLastName');

    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: `Ro${NUL}le` },
    });
    expectRefused(role, 'name');
    const roleDescription = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${roleId}`,
      headers: admin,
      payload: { version: 1, description: `bell\u0007` },
    });
    expectRefused(roleDescription, 'description');

    const permission = await t.app.inject({
      method: 'POST',
      url: '/api/permissions',
      headers: admin,
      payload: { code: 'reports.nul', name: 'Reports', description: `x${NUL}` },
    });
    expectRefused(permission, 'description');
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/permissions',
      headers: admin,
      payload: { code: 'reports.nul', name: 'Reports', group: `g${NUL}` },
    });
    expectRefused(group, 'group');
  });

  it('keeps line breaks and tabs in a description, the one multi-line field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: 'Multi-line description', description: 'first line\n\tsecond line' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.description).toBe('first line\n\tsecond line');
  });

  it('refuses control characters in the account routes and changes nothing', async () => {
    const me = await t.app.inject({
      method: 'PATCH',
      url: '/api/accounts/me',
      headers: admin,
      payload: { userFirstName: `Ad${NUL}min` },
    });
    expectRefused(me, 'userFirstName');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { userName: `ad${NUL}min`, password: 'whatever-it-is' },
    });
    expectRefused(signIn, 'userName');
    const signInEmail = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { email: `admin${NUL}@demo.local`, password: 'whatever-it-is' },
    });
    expectRefused(signInEmail, 'email');
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/forgot-password',
      payload: { email: `admin${NUL}@demo.local` },
    });
    expectRefused(forgot, 'email');
    const verify = await t.app.inject({ url: '/api/accounts/verify', headers: admin });
    expect(verify.json().data.userFirstName).not.toContain(NUL);
  });

  it('refuses a control character in a query parameter no schema names', async () => {
    const response = await t.app.inject({
      url: `/api/users?unknown=${encodeURIComponent(NUL)}`,
      headers: admin,
    });
    expectRefused(response, 'unknown');
  });
});
