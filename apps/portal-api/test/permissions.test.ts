import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, permissions, roles } from '../src/db/schema';
import { buildTestApp, DATABASES, expectResourceGuarded, type TestApp } from './helper';

describe.each(DATABASES)('permissions resource on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let nobody: { authorization: string };
  let usersRead: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    nobody = await t.authHeader((await t.createUser()).id);
    const [row] = await t.db
      .select({ id: permissions.id })
      .from(permissions)
      .where(
        and(eq(permissions.companyId, t.company.companyId), eq(permissions.code, 'users.read')),
      );
    usersRead = row!.id;
  });
  afterAll(() => t?.close());

  const create = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/permissions', headers: admin, payload });

  it('creates a custom permission the Administrator role receives, edits and deletes it', async () => {
    const created = await create({
      code: 'reports.export',
      name: 'Export reports',
      group: 'Reports',
    });
    expect(created.statusCode).toBe(201);
    const permission = created.json().data;
    expect(permission).toMatchObject({
      code: 'reports.export',
      isSystem: false,
      roleCount: 1,
      version: 1,
    });
    // The admin holds it at once (through the Administrator role) and may put it in a role.
    const verify = await t.app.inject({ url: '/api/accounts/verify', headers: admin });
    expect(verify.json().data.permissions).toContain('reports.export');
    const read = await t.app.inject({ url: `/api/permissions/${permission._id}`, headers: admin });
    expect(read.json().data).toEqual(permission);

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/permissions/${permission._id}`,
      headers: admin,
      payload: { version: 1, code: 'reports.download', name: 'Download reports' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ code: 'reports.download', version: 2 });

    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: 'Reporters', permissionIds: [permission._id] },
    });
    expect(role.statusCode).toBe(201);
    const busy = await t.app.inject({
      method: 'DELETE',
      url: `/api/permissions/${permission._id}`,
      headers: admin,
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(
      'The permission reports.download is still given to 1 role. Remove it from them first.',
    );
    await t.app.inject({
      method: 'DELETE',
      url: `/api/roles/${role.json().data._id}`,
      headers: admin,
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/permissions/${permission._id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(200);
    const events = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, permission._id))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.action)).toEqual([
      'permission.create',
      'permission.update',
      'permission.delete',
    ]);
  });

  it('protects system permissions: no delete, no rename, description only', async () => {
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/permissions/${usersRead}`,
      headers: admin,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe('users.read is a system permission and cannot be deleted.');
    for (const payload of [{ code: 'users.look' }, { name: 'Look at users' }]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/permissions/${usersRead}`,
        headers: admin,
        payload: { version: 1, ...payload },
      });
      expect(response.statusCode).toBe(409);
    }
    const described = await t.app.inject({
      method: 'PATCH',
      url: `/api/permissions/${usersRead}`,
      headers: admin,
      payload: { version: 1, description: 'See the company’s users.' },
    });
    expect(described.statusCode).toBe(200);
    const [row] = await t.db.select().from(permissions).where(eq(permissions.id, usersRead));
    expect(row).toMatchObject({ code: 'users.read', name: 'Read users', version: 2 });
    const [admins] = await t.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.companyId, t.company.companyId), eq(roles.isSystem, true)));
    expect(admins).toBeDefined();
  });

  it('validates the code and refuses a duplicate', async () => {
    const bad = await create({ code: 'Not A Code', name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('code');
    const missing = await create({ code: 'a.b.c' });
    expect(missing.json().errors[0].field).toBe('name');
    const dup = await create({ code: 'users.read', name: 'Again' });
    expect(dup.statusCode).toBe(409);
  });

  it('answers 401, 403 and 404 on every route', async () => {
    await expectResourceGuarded(t, {
      resource: 'permissions',
      id: usersRead,
      createPayload: { code: 'a.b', name: 'x' },
      admin,
      nobody,
    });
  });
});
