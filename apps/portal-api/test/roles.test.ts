import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../src/db/schema';
import { buildTestApp, DATABASES, expectResourceGuarded, type TestApp } from './helper';

describe.each(DATABASES)('roles resource on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let nobody: { authorization: string };
  let nobodyId: string;
  let ids: Record<string, string>;
  let administratorRoleId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    nobodyId = (await t.createUser()).id;
    nobody = await t.authHeader(nobodyId);
    ({ permissionIds: ids, administratorRoleId } = await t.accessFixture());
  });
  afterAll(() => t?.close());

  const create = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/roles', headers: admin, payload });

  it('creates, reads, updates and deletes a role, auditing each step', async () => {
    const created = await create({
      name: 'Readers',
      description: 'Read only',
      permissionIds: [ids['users.read'], ids['roles.read']],
    });
    expect(created.statusCode).toBe(201);
    const role = created.json().data;
    expect(role).toMatchObject({
      name: 'Readers',
      isSystem: false,
      userCount: 0,
      version: 1,
      permissionIds: [ids['users.read'], ids['roles.read']].sort(),
    });
    const read = await t.app.inject({ url: `/api/roles/${role._id}`, headers: admin });
    expect(read.json().data).toEqual(role);

    const updated = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${role._id}`,
      headers: admin,
      payload: { version: 1, name: 'Auditors', permissionIds: [ids['audit.read']] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'Auditors',
      permissionIds: [ids['audit.read']],
      version: 2,
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/roles/${role._id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/roles/${role._id}`, headers: admin })).statusCode).toBe(
      404,
    );
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, role._id))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.action)).toEqual(['role.create', 'role.update', 'role.delete']);
    expect(events[1]).toMatchObject({
      before: { name: 'Readers', version: 1 },
      after: { name: 'Auditors', permissionIds: [ids['audit.read']], version: 2 },
    });
    expect(events[1]?.before).not.toHaveProperty('description');
  });

  it('applies a role change to its holders on the very next request', async () => {
    const role = (await create({ name: 'Viewers', permissionIds: [] })).json().data;
    const holder = await t.createUser({ roles: ['Viewers'] });
    const headers = await t.authHeader(holder.id);
    expect((await t.app.inject({ url: '/api/users', headers })).statusCode).toBe(403);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${role._id}`,
      headers: admin,
      payload: { version: role.version, permissionIds: [ids['users.read']] },
    });
    expect(patched.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/users', headers })).statusCode).toBe(200);
    const listed = await t.app.inject({ url: `/api/roles/${role._id}`, headers: admin });
    expect(listed.json().data.userCount).toBe(1);
  });

  it('protects the Administrator role and roles still assigned, with sentences', async () => {
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/roles/${administratorRoleId}`,
      headers: admin,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe('The Administrator role is built in and cannot be deleted.');
    const rename = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${administratorRoleId}`,
      headers: admin,
      payload: { version: 1, name: 'Boss' },
    });
    expect(rename.statusCode).toBe(409);
    const strip = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${administratorRoleId}`,
      headers: admin,
      payload: { version: 1, permissionIds: [] },
    });
    expect(strip.statusCode).toBe(409);
    const describe = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${administratorRoleId}`,
      headers: admin,
      payload: { version: 1, description: 'Runs the company' },
    });
    expect(describe.statusCode).toBe(200);

    const assigned = (await create({ name: 'Assigned' })).json().data;
    await t.createUser({ roles: ['Assigned'] });
    const busy = await t.app.inject({
      method: 'DELETE',
      url: `/api/roles/${assigned._id}`,
      headers: admin,
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(
      'The role "Assigned" is still assigned to 1 user. Remove it from them first.',
    );
  });

  it('keeps somebody able to manage roles', async () => {
    const managers = (
      await create({
        name: 'Role managers',
        permissionIds: [ids['roles.read'], ids['roles.update']],
      })
    ).json().data;
    const manager = await t.createUser({ roles: ['Role managers'] });
    // Everyone else who could manage roles is gone: only `manager` is left.
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, t.company.adminId));
    try {
      const headers = await t.authHeader(manager.id);
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/roles/${managers._id}`,
        headers,
        payload: { version: managers.version, permissionIds: [ids['roles.read']] },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/nobody who can manage roles/);
      const still = await t.app.inject({ url: `/api/roles/${managers._id}`, headers });
      expect(still.json().data.permissionIds).toHaveLength(2);
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.id, t.company.adminId));
    }
  });

  it('validates names, duplicates and permission ids, naming the field', async () => {
    const empty = await create({ name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].field).toBe('name');
    const dup = await create({ name: 'administrator' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Your company already has a role named "administrator".');
    const unknown = await create({
      name: 'Ghost',
      permissionIds: ['01900000-0000-7000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('permissionIds');
    const notUuid = await create({ name: 'Ghost', permissionIds: ['x'] });
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json().errors[0].field).toBe('permissionIds.0');
  });

  it('answers 401, 403 and 404 on every route', async () => {
    await expectResourceGuarded(t, {
      resource: 'roles',
      id: administratorRoleId,
      createPayload: { name: 'X' },
      admin,
      nobody,
    });
  });
});
