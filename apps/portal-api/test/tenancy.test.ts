import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DATABASES, type TestApp } from './helper';

/** A second company's administrator never sees or touches the first company's rows. */
describe.each(DATABASES)('tenant isolation on %s', (database) => {
  let t: TestApp;
  let adminA: { authorization: string };
  let adminB: { authorization: string };
  const a: Record<'user' | 'role' | 'permission', string> = { user: '', role: '', permission: '' };
  let bUserId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    adminA = await t.authHeader();
    const other = await t.createCompany('Other Company');
    adminB = await t.authHeader(other.adminId);
    bUserId = (await t.createUser({ companyId: other.companyId })).id;
    a.user = (await t.createUser()).id;
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: adminA,
      payload: { name: 'A-only role' },
    });
    a.role = role.json().data._id;
    const permission = await t.app.inject({
      method: 'POST',
      url: '/api/permissions',
      headers: adminA,
      payload: { code: 'a.secret', name: 'A only' },
    });
    a.permission = permission.json().data._id;
    // The system rows of company A too.
    const roles = await t.app.inject({ url: '/api/roles?filters[isSystem]=true', headers: adminA });
    a.role = roles.json().data.items[0]._id as string;
  });
  afterAll(() => t?.close());

  const paths = { user: 'users', role: 'roles', permission: 'permissions' } as const;

  it('answers 404 to the other company for every id, on read, update and delete', async () => {
    const ids = { ...a, admin: t.company.adminId };
    for (const [kind, id] of Object.entries(ids)) {
      const path = paths[kind === 'admin' ? 'user' : (kind as keyof typeof paths)];
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await t.app.inject({
          method,
          url: `/api/${path}/${id}`,
          headers: adminB,
          ...(method === 'PATCH' ? { payload: { version: 1, description: 'x' } } : {}),
        });
        expect(response.statusCode, `${method} ${kind}`).toBe(404);
      }
    }
    // Nothing changed for company A.
    const still = await t.app.inject({ url: `/api/users/${a.user}`, headers: adminA });
    expect(still.json().data.version).toBe(1);
  });

  it('never lists the other company’s rows, whatever the search or filter', async () => {
    for (const path of ['users', 'roles', 'permissions', 'audit-events']) {
      const mine = await t.app.inject({ url: `/api/${path}?pageSize=100`, headers: adminA });
      const theirs = await t.app.inject({ url: `/api/${path}?pageSize=100`, headers: adminB });
      const mineIds = new Set(mine.json().data.items.map((r: { _id: string }) => r._id));
      const theirIds: string[] = theirs.json().data.items.map((r: { _id: string }) => r._id);
      expect(theirIds.length, path).toBeGreaterThan(0);
      expect(
        theirIds.filter((id) => mineIds.has(id)),
        path,
      ).toEqual([]);
    }
    const search = await t.app.inject({ url: '/api/users?search=admin', headers: adminB });
    expect(search.json().data.items.map((u: { _id: string }) => u._id)).not.toContain(
      t.company.adminId,
    );
    const byRole = await t.app.inject({
      url: `/api/users?filters[roleId]=${a.role}`,
      headers: adminB,
    });
    expect(byRole.json().data.total).toBe(0);
    const secret = await t.app.inject({ url: '/api/permissions?search=a.secret', headers: adminB });
    expect(secret.json().data.total).toBe(0);
  });

  it('refuses to link the other company’s roles or permissions', async () => {
    const read = await t.app.inject({ url: `/api/users/${bUserId}`, headers: adminB });
    const withRole = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${bUserId}`,
      headers: adminB,
      payload: { version: read.json().data.version, roleIds: [a.role] },
    });
    expect(withRole.statusCode).toBe(400);
    expect(withRole.json().errors[0].field).toBe('roleIds');
    const withPermission = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: adminB,
      payload: { name: 'Thief', permissionIds: [a.permission] },
    });
    expect(withPermission.statusCode).toBe(400);
    expect(withPermission.json().errors[0].field).toBe('permissionIds');
  });
});
