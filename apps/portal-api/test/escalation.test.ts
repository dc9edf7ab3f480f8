import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, rolePermissions } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

/** No escalation (docs/product/services.md §3): nobody grants what they do not hold or changes their own access. */
describe.each(DATABASES)('no escalation on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let ids: Record<string, string>;
  let administratorRoleId: string;

  const roleWith = async (name: string, codes: string[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name, permissionIds: codes.map((c) => ids[c]) },
    });
    expect(response.statusCode).toBe(201);
    return response.json().data as { _id: string; version: number; permissionIds: string[] };
  };
  const codesOfRole = async (roleId: string) =>
    (
      await t.db
        .select({ code: permissions.code })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(eq(rolePermissions.roleId, roleId))
    )
      .map((r) => r.code)
      .sort();

  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    ({ permissionIds: ids, administratorRoleId } = await t.accessFixture());
  });
  afterAll(() => t?.close());

  it('a user with roles.update but not users.delete cannot build a role holding users.delete', async () => {
    const editorRole = await roleWith('Role editors', [
      'roles.read',
      'roles.create',
      'roles.update',
    ]);
    const target = await roleWith('Helpdesk', ['users.read']);
    const editor = await t.createUser({ roles: ['Role editors'] });
    const headers = await t.authHeader(editor.id);

    const create = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers,
      payload: { name: 'Sneaky', permissionIds: [ids['users.delete']] },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toMatch(/users\.delete/);

    const grantOwn = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${editorRole._id}`,
      headers,
      payload: {
        version: editorRole.version,
        permissionIds: [...editorRole.permissionIds, ids['users.delete']],
      },
    });
    expect(grantOwn.statusCode).toBe(403);
    expect(await codesOfRole(editorRole._id)).toEqual([
      'roles.create',
      'roles.read',
      'roles.update',
    ]);

    const widen = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${target._id}`,
      headers,
      payload: { version: target.version, permissionIds: [ids['users.delete']] },
    });
    expect(widen.statusCode).toBe(403);
    // Helpdesk holds users.read, which the editor lacks: they cannot edit it at all.
    expect(await codesOfRole(target._id)).toEqual(['users.read']);

    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers,
      payload: { name: 'Role readers', permissionIds: [ids['roles.read']] },
    });
    expect(fine.statusCode).toBe(201);
  });

  it('a user cannot change their own roles, direct permissions or status', async () => {
    const me = await t.app.inject({ url: `/api/users/${t.company.adminId}`, headers: admin });
    const version = me.json().data.version as number;
    for (const change of [
      { roleIds: [] },
      { roleIds: [administratorRoleId, (await roleWith('Extra', []))._id] },
      { permissionIds: [ids['users.read']] },
      { status: 'inactive' },
    ]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${t.company.adminId}`,
        headers: admin,
        payload: { version, ...change },
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(403);
      expect(response.json().message).toBe(
        'You cannot change your own roles, permissions or status.',
      );
    }
    const name = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${t.company.adminId}`,
      headers: admin,
      payload: { version, userFirstName: 'Still', roleIds: [administratorRoleId] },
    });
    expect(name.statusCode).toBe(200);
    expect(name.json().data).toMatchObject({
      userFirstName: 'Still',
      roleIds: [administratorRoleId],
    });
  });

  it('a user manager cannot give roles or permissions they lack, nor manage a stronger user', async () => {
    await roleWith('User managers', ['users.read', 'users.create', 'users.update', 'roles.read']);
    const manager = await t.createUser({ roles: ['User managers'] });
    const headers = await t.authHeader(manager.id);
    const plain = await t.createUser();
    const read = await t.app.inject({ url: `/api/users/${plain.id}`, headers });
    const version = read.json().data.version as number;

    const giveAdmin = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${plain.id}`,
      headers,
      payload: { version, roleIds: [administratorRoleId] },
    });
    expect(giveAdmin.statusCode).toBe(403);
    const giveDirect = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${plain.id}`,
      headers,
      payload: { version, permissionIds: [ids['users.delete']] },
    });
    expect(giveDirect.statusCode).toBe(403);
    const createAdmin = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: {
        userName: 'would-be-admin',
        email: 'would-be-admin@example.test',
        userFirstName: 'Would',
        userLastName: 'Be',
        password: 'a long enough passphrase',
        roleIds: [administratorRoleId],
      },
    });
    expect(createAdmin.statusCode).toBe(403);
    const takeOver = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${t.company.adminId}`,
      headers,
      payload: { version: 1, email: 'mine@example.test' },
    });
    expect(takeOver.statusCode).toBe(403);
    const allowed = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${plain.id}`,
      headers,
      payload: { version, roleIds: [(await roleWith('Nothing much', ['users.read']))._id] },
    });
    expect(allowed.statusCode).toBe(200);
    const after = await t.app.inject({ url: `/api/users/${plain.id}`, headers });
    expect(after.json().data.permissionIds).toEqual([]);
  });
});
