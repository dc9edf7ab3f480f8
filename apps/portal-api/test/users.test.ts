import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, roles, signIns } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('users resource on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let readerId: string;
  let reader: { authorization: string };
  let administratorRoleId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    const reader0 = await t.createUser();
    readerId = reader0.id;
    reader = await t.authHeader(readerId);
    const [role] = await t.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.name, 'Administrator'));
    administratorRoleId = role!.id;
  });
  afterAll(() => t?.close());

  const newUser = (n: string, extra: Record<string, unknown> = {}) => ({
    userName: `person-${n}`,
    email: `Person-${n}@Example.test`,
    userFirstName: 'Pat',
    userLastName: `Person ${n}`,
    phone: '+1 555 0100',
    password: 'a long enough passphrase',
    ...extra,
  });

  it('creates, reads, updates and deletes a user, auditing each step without secrets', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('crud', { roleIds: [administratorRoleId] }),
    });
    expect(created.statusCode).toBe(201);
    const user = created.json().data;
    expect(created.json()).toMatchObject({ success: true, code: 'CREATED', status: 201 });
    expect(user).toMatchObject({
      userName: 'person-crud',
      email: 'person-crud@example.test',
      status: 'active',
      roleIds: [administratorRoleId],
      permissionIds: [],
      version: 1,
      lastSignInAt: null,
    });
    expect(user).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(created.json())).not.toContain('passphrase');

    const read = await t.app.inject({ url: `/api/users/${user._id}`, headers: admin });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(user);

    const updated = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user._id}`,
      headers: admin,
      payload: { version: 1, userFirstName: 'Patricia', roleIds: [] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      userFirstName: 'Patricia',
      roleIds: [],
      version: 2,
    });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${user._id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.app.inject({ url: `/api/users/${user._id}`, headers: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'NOT_FOUND' });

    const events = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, user._id))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.action)).toEqual(['user.create', 'user.update', 'user.delete']);
    expect(events[0]?.actorId).toBe(t.company.adminId);
    expect(events[1]).toMatchObject({
      before: { userFirstName: 'Pat', roleIds: [administratorRoleId], version: 1 },
      after: { userFirstName: 'Patricia', roleIds: [], version: 2 },
    });
    expect(JSON.stringify(events)).not.toMatch(/passphrase|password/i);
  });

  it('names the field of a validation error and changes nothing', async () => {
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('bad', { password: 'too short' }),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(short.json().errors[0].field).toBe('password');
    const common = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('common', { password: 'password1234' }),
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().errors[0].field).toBe('password');
    const email = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('mail', { email: 'not-an-email' }),
    });
    expect(email.json().errors[0].field).toBe('email');
    const badId = await t.app.inject({ url: '/api/users/not-an-id', headers: admin });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().errors[0].field).toBe('id');
    const noVersion = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${readerId}`,
      headers: admin,
      payload: { userFirstName: 'X' },
    });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().errors[0].field).toBe('version');
    const list = await t.app.inject({ url: '/api/users?search=person-bad', headers: admin });
    expect(list.json().data.total).toBe(0);
  });

  it('refuses a taken user name or email with 409', async () => {
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('dup', { userName: 'ADMIN' }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/already taken/);
    const mail = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: newUser('dup2', { email: 'Admin@Demo.Local' }),
    });
    expect(mail.statusCode).toBe(409);
  });

  it('answers 401 without a token and 403 without the permission code, on every route', async () => {
    const routes = [
      { method: 'GET', url: '/api/users' },
      { method: 'GET', url: '/api/users/statuses' },
      { method: 'GET', url: `/api/users/${readerId}` },
      { method: 'POST', url: '/api/users', payload: newUser('x') },
      { method: 'PATCH', url: `/api/users/${readerId}`, payload: { version: 1 } },
      { method: 'DELETE', url: `/api/users/${readerId}` },
    ] as const;
    for (const route of routes) {
      const anonymous = await t.app.inject(route);
      expect(anonymous.statusCode, `${route.method} ${route.url}`).toBe(401);
      const denied = await t.app.inject({ ...route, headers: reader });
      expect(denied.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(denied.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    }
  });

  it('answers 404 for an unknown id on read, update and delete', async () => {
    const unknown = '01900000-0000-7000-8000-000000000000';
    for (const route of [
      { method: 'GET', url: `/api/users/${unknown}` },
      { method: 'PATCH', url: `/api/users/${unknown}`, payload: { version: 1 } },
      { method: 'DELETE', url: `/api/users/${unknown}` },
    ] as const) {
      const response = await t.app.inject({ ...route, headers: admin });
      expect(response.statusCode, route.method).toBe(404);
    }
  });

  it('lists the user statuses', async () => {
    const response = await t.app.inject({ url: '/api/users/statuses', headers: admin });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.items.map((s: { value: string }) => s.value)).toEqual([
      'active',
      'inactive',
      'locked',
    ]);
  });

  it('ends every sign-in of a user set inactive, and answers 409 to deleting yourself', async () => {
    const target = await t.createUser();
    const token = await t.authHeader(target.id);
    expect((await t.app.inject({ url: '/api/accounts/verify', headers: token })).statusCode).toBe(
      200,
    );
    const read = await t.app.inject({ url: `/api/users/${target.id}`, headers: admin });
    const locked = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${target.id}`,
      headers: admin,
      payload: { version: read.json().data.version, status: 'locked' },
    });
    expect(locked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/accounts/verify', headers: token })).statusCode).toBe(
      401,
    );
    const live = await t.db.select().from(signIns).where(eq(signIns.userId, target.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);

    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${t.company.adminId}`,
      headers: admin,
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toMatch(/cannot delete your own account/);
  });
  it('documents every administration route in the OpenAPI reference', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/users',
      '/api/users/statuses',
      '/api/users/{id}',
      '/api/roles',
      '/api/roles/{id}',
      '/api/permissions',
      '/api/permissions/{id}',
      '/api/audit-events',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
