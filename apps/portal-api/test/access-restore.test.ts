import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, deletedAccessRecords } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('restoring deleted roles and permissions on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let ids: Record<string, string>;
  let administratorRoleId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    const fixture = await t.accessFixture();
    ids = fixture.permissionIds;
    administratorRoleId = fixture.administratorRoleId;
  });
  afterAll(() => t?.close());

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers = admin,
    payload?: object,
  ) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('brings a role back with its id, name, version and permissions; only once', async () => {
    const roleId = await t.createRole('Restorable readers', ['users.read', 'roles.read']);
    const before = (await call('GET', `/api/roles/${roleId}`)).json().data;
    expect((await call('DELETE', `/api/roles/${roleId}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/roles/${roleId}`)).statusCode).toBe(404);

    const restored = await call('POST', `/api/roles/${roleId}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().message).toBe('The role was restored.');
    const role = restored.json().data;
    expect(role).toMatchObject({
      _id: roleId,
      name: 'Restorable readers',
      version: before.version,
    });
    expect([...role.permissionIds].sort()).toEqual([ids['users.read'], ids['roles.read']].sort());
    // The role is usable again: it can be given to a user.
    const holder = await t.createUser({ roles: ['Restorable readers'] });
    expect((await call('GET', `/api/users/${holder.id}`)).json().data.roleIds).toEqual([roleId]);

    const again = await call('POST', `/api/roles/${roleId}/restore`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const events = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, roleId));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['role.delete', 'role.restore']),
    );
  });

  it('brings a permission back into the roles that had it (the Administrator role)', async () => {
    const created = await call('POST', '/api/permissions', admin, {
      code: 'reports.export',
      name: 'Export reports',
      description: 'Download reports as files',
      group: 'Reports',
    });
    expect(created.statusCode).toBe(201);
    const permission = created.json().data;
    const adminRole = async () =>
      (await call('GET', `/api/roles/${administratorRoleId}`)).json().data.permissionIds;
    expect(await adminRole()).toContain(permission._id);
    expect((await call('DELETE', `/api/permissions/${permission._id}`)).statusCode).toBe(200);
    expect(await adminRole()).not.toContain(permission._id);

    const restored = await call('POST', `/api/permissions/${permission._id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({
      _id: permission._id,
      code: 'reports.export',
      name: 'Export reports',
      description: 'Download reports as files',
      group: 'Reports',
    });
    expect(await adminRole()).toContain(permission._id);
  });

  it('refuses after the window, over a name taken meanwhile, without the create permission, across companies', async () => {
    const expired = await t.createRole('Expired role', ['users.read']);
    await call('DELETE', `/api/roles/${expired}`);
    await t.db
      .update(deletedAccessRecords)
      .set({ restorableUntil: new Date(Date.now() - 1000) })
      .where(eq(deletedAccessRecords.id, expired));
    const late = await call('POST', `/api/roles/${expired}/restore`);
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toMatch(/deleted role that can still be restored/);

    const clashing = await t.createRole('Field crew', ['users.read']);
    await call('DELETE', `/api/roles/${clashing}`);
    await t.createRole('FIELD CREW', ['users.read']);
    const clash = await call('POST', `/api/roles/${clashing}/restore`);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ success: false, code: 'CONFLICT' });
    expect(clash.json().message).toMatch(/A role named "Field crew" was created since the delete/);
    // Nothing changed: the record is still kept for a later try.
    expect(
      await t.db.select().from(deletedAccessRecords).where(eq(deletedAccessRecords.id, clashing)),
    ).toHaveLength(1);

    const code = await call('POST', '/api/permissions', admin, { code: 'meters.tag', name: 'Tag' });
    const permissionId = code.json().data._id;
    await call('DELETE', `/api/permissions/${permissionId}`);
    await call('POST', '/api/permissions', admin, { code: 'meters.tag', name: 'Tag again' });
    const codeClash = await call('POST', `/api/permissions/${permissionId}/restore`);
    expect(codeClash.statusCode).toBe(409);
    expect(codeClash.json().message).toMatch(/code meters.tag was created since the delete/);

    const gone = await t.createRole('Deleted by a clerk', ['users.read']);
    await call('DELETE', `/api/roles/${gone}`);
    await t.createRole('Role deleters', ['roles.read', 'roles.delete']);
    const clerk = await t.createUser({ roles: ['Role deleters'] });
    const forbidden = await call(
      'POST',
      `/api/roles/${gone}/restore`,
      await t.authHeader(clerk.id),
    );
    expect(forbidden.statusCode).toBe(403);
    const other = await t.createCompany('Restore Other Co');
    const foreign = await call(
      'POST',
      `/api/roles/${gone}/restore`,
      await t.authHeader(other.adminId),
    );
    expect(foreign.statusCode).toBe(404);
    expect((await call('POST', `/api/roles/${gone}/restore`)).statusCode).toBe(200);
  });

  it('drops a permission deleted meanwhile and refuses a caller who lacks the role’s permissions', async () => {
    const extra = await call('POST', '/api/permissions', admin, {
      code: 'sites.audit',
      name: 'Audit',
    });
    const extraId = extra.json().data._id;
    const roleId = await t.createRole('Site auditors', ['users.read']);
    const role = (await call('GET', `/api/roles/${roleId}`)).json().data;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/roles/${roleId}`,
      headers: admin,
      payload: { permissionIds: [...role.permissionIds, extraId], version: role.version },
    });
    expect(patched.statusCode).toBe(200);
    await call('DELETE', `/api/roles/${roleId}`);
    await t.createRole('Role restorers', ['roles.read', 'roles.create']);
    const weak = await t.createUser({ roles: ['Role restorers'] });
    const refused = await call('POST', `/api/roles/${roleId}/restore`, await t.authHeader(weak.id));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/restore this role/);
    // The permission goes while the role is deleted: the restored role comes back without it.
    expect((await call('DELETE', `/api/permissions/${extraId}`)).statusCode).toBe(200);
    const restored = await call('POST', `/api/roles/${roleId}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.permissionIds).toEqual([ids['users.read']]);
  });
});
