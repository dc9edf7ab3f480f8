import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DATABASES, type TestApp } from './helper';

/**
 * Issue 26's server side of the lists: a user answer names its roles for anyone who may read users
 * (no roles.read needed); filters take several values; the audit trail names its entities and ids.
 */
describe.each(DATABASES)('admin lists on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let reader: { authorization: string };
  let auditorsId: string;
  let lockedId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    await t.createRole('User readers', ['users.read']);
    auditorsId = await t.createRole('Auditors', ['audit.read']);
    const readerUser = await t.createUser({ roles: ['User readers'] });
    reader = await t.authHeader(readerUser.id);
    lockedId = (await t.createUser({ status: 'locked', roles: ['Auditors'] })).id;
    await t.createUser({ status: 'inactive' });
  });
  afterAll(() => t?.close());

  const get = async (url: string, headers = admin) => {
    const response = await t.app.inject({ url, headers });
    return { status: response.statusCode, body: response.json() };
  };

  it('gives a users.read holder without roles.read the names of every user’s roles', async () => {
    expect((await get('/api/roles', reader)).status).toBe(403);
    const list = await get('/api/users?pageSize=100', reader);
    expect(list.status).toBe(200);
    const adminRow = list.body.data.items.find((u: { _id: string }) => u._id === t.company.adminId);
    expect(adminRow.roles).toEqual([{ _id: adminRow.roleIds[0], name: 'Administrator' }]);
    const one = await get(`/api/users/${lockedId}`, reader);
    expect(one.body.data.roles).toEqual([{ _id: auditorsId, name: 'Auditors' }]);
    expect(one.body.data.roleIds).toEqual([auditorsId]);
  });

  it('filters by several statuses and roles, as a comma list or repeated keys', async () => {
    const all = await get('/api/users?pageSize=100');
    const total = all.body.data.total;
    const two = await get('/api/users?filters[status]=locked,inactive&pageSize=100');
    expect(two.status).toBe(200);
    expect(two.body.data.total).toBe(2);
    const repeated = await get('/api/users?filters[status]=locked&filters[status]=active');
    expect(repeated.body.data.total).toBe(total - 1);
    const admins = all.body.data.items.find((u: { _id: string }) => u._id === t.company.adminId);
    const roles = await get(
      `/api/users?filters[roleId]=${admins.roleIds[0]},${auditorsId}&sort=_id:asc`,
    );
    expect(roles.body.data.items.map((u: { _id: string }) => u._id)).toEqual([
      t.company.adminId,
      lockedId,
    ]);
    const bad = await get('/api/users?filters[status]=locked,sleeping');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('filters.status');
    expect(bad.body.errors[0].message).toMatch(/joined by commas/);
    const empty = await get('/api/users?filters[status]=,');
    expect(empty.status).toBe(400);
  });

  it('names the audit trail’s entities and the role ids of a change', async () => {
    const readers = await get('/api/roles?search=User readers', admin);
    const readersId = readers.body.data.items[0]._id;
    const before = await get(`/api/users/${lockedId}`);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${lockedId}`,
      headers: admin,
      payload: { version: before.body.data.version, roleIds: [auditorsId, readersId] },
    });
    expect(patched.statusCode).toBe(200);
    const trail = await get(
      `/api/audit-events?filters[entityId]=${lockedId}&filters[action]=user.update,user.create`,
    );
    expect(trail.status).toBe(200);
    const [event] = trail.body.data.items;
    expect(event.action).toBe('user.update');
    expect(event.entityName).toBe(before.body.data.userName);
    expect(event.after.roleIds).toEqual(expect.arrayContaining([auditorsId, readersId]));
    expect(event.names).toMatchObject({ [auditorsId]: 'Auditors', [readersId]: 'User readers' });
    // The trail keeps ids, not the names of the moment.
    expect(event.after.roles).toBeUndefined();
    const byActor = await get(
      `/api/audit-events?filters[actorId]=${t.company.adminId},${lockedId}`,
    );
    expect(byActor.status).toBe(200);
    expect(byActor.body.data.total).toBeGreaterThan(0);
  });
});
