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

// Findings of issue #24: parameters a list would ignore, characters that are no text or hide what a
// name says, and dates the database cannot hold. Each is a 400 naming the field, changing nothing.
describe('unknown list parameters, hidden characters and impossible dates', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.authHeader();
  }, 60_000);
  afterAll(() => t?.close());

  const refusal = (response: { statusCode: number; json(): unknown }) => {
    expect(response.statusCode, JSON.stringify(response.json())).toBe(400);
    const body = response.json() as { code: string; errors: { field: string }[] };
    expect(body.code).toBe('VALIDATION_ERROR');
    return body.errors.map((error) => error.field);
  };

  it('refuses unknown list parameters on every list, naming them', async () => {
    for (const resource of ['users', 'roles', 'permissions', 'audit-events']) {
      for (const [query, field] of [
        ['filter[status]=locked', 'filter'],
        ['pagesize=1', 'pagesize'],
        ['filters[status][$ne]=x', 'filters.status.$ne'],
        ['filters[nope]=x', 'filters.nope'],
      ]) {
        const response = await t.app.inject({ url: `/api/${resource}?${query}`, headers: admin });
        expect(refusal(response), `${resource}?${query}`).toContain(field);
      }
      const known = await t.app.inject({
        url: `/api/${resource}?page=1&pageSize=5&sort=_id:desc&search=a`,
        headers: admin,
      });
      expect(known.statusCode, resource).toBe(200);
    }
    const filtered = await t.app.inject({
      url: '/api/users?filters[status]=locked',
      headers: admin,
    });
    expect(filtered.statusCode).toBe(200);
  });

  it('refuses audit dates out of range instead of failing in the query', async () => {
    for (const [query, field] of [
      ['filters[from]=0000-01-01', 'filters.from'],
      ['filters[to]=9999-12-31', 'filters.to'],
      ['filters[from]=0001-01-01T00:00:00Z', 'filters.from'],
    ]) {
      const response = await t.app.inject({ url: `/api/audit-events?${query}`, headers: admin });
      expect(refusal(response), query).toContain(field);
    }
    const inRange = await t.app.inject({
      url: '/api/audit-events?filters[from]=1900-01-01&filters[to]=9999-12-30',
      headers: admin,
    });
    expect(inRange.statusCode).toBe(200);
  });

  const newUser = (fields: Record<string, string>) => ({
    userName: 'hidden-chars',
    email: 'hidden-chars@example.test',
    userFirstName: 'Hid',
    userLastName: 'Den',
    password: 'a-long-enough-passphrase',
    ...fields,
  });

  it('refuses lone surrogates, bidi controls and zero-width characters in names, creating nothing', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ userFirstName: 'Ada\ud800' }, 'userFirstName'],
      [{ userLastName: '\udc00' }, 'userLastName'],
      [{ userFirstName: 'Ada\u202eecila' }, 'userFirstName'],
      [{ userLastName: 'Love\u200blace' }, 'userLastName'],
      [{ userFirstName: '\u2066Ada\u2069' }, 'userFirstName'],
      [{ userName: 'admin\u200d' }, 'userName'],
      [{ userName: '\ufeffhidden' }, 'userName'],
      [{ userName: 'zoe\u0301' }, 'userName'],
    ];
    for (const [fields, field] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: admin,
        payload: newUser(fields),
      });
      expect(refusal(response), JSON.stringify(fields)).toContain(field);
    }
    for (const [url, payload, field] of [
      ['/api/roles', { name: 'Role\u200f', permissionIds: [] }, 'name'],
      ['/api/roles', { name: 'Role\udbff', permissionIds: [] }, 'name'],
      ['/api/permissions', { code: 'x.y', name: 'Perm\u2060', group: 'x' }, 'name'],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url, headers: admin, payload });
      expect(refusal(response), JSON.stringify(payload)).toContain(field);
    }
    const search = await t.app.inject({
      url: `/api/users?search=${encodeURIComponent('ad\u202emin')}`,
      headers: admin,
    });
    expect(refusal(search)).toContain('search');
    const listed = await t.app.inject({ url: '/api/users?search=hidden', headers: admin });
    expect(listed.json().data.total).toBe(0);
  });

  it('keeps combining marks in personal names, stored in NFC', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser({ userFirstName: 'Zoe\u0301', userLastName: 'Bjo\u0308rk' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ userFirstName: 'Zoé', userLastName: 'Björk' });
    expect(created.json().data.userFirstName).toBe('Zoe\u0301'.normalize('NFC'));
  });
});
