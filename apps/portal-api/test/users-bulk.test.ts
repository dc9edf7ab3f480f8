import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, deletedUsers, users } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('bulk user changes and restore on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let administratorRoleId: string;
  let viewerRoleId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    administratorRoleId = (await t.accessFixture()).administratorRoleId;
    viewerRoleId = await t.createRole('Bulk viewer', ['users.read']);
  });
  afterAll(() => t?.close());

  const bulk = (headers: { authorization: string }, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: '/api/users/bulk', headers, payload });

  it('changes the status of many users, reporting each refused one with its reason', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const unknown = '01900000-0000-7000-8000-000000000000';
    const response = await bulk(admin, {
      ids: [a.id, t.company.adminId, b.id, unknown],
      changes: { status: 'inactive' },
    });
    expect(response.statusCode).toBe(200);
    const { results, succeeded, failed } = response.json().data;
    expect({ succeeded, failed }).toEqual({ succeeded: 2, failed: 2 });
    expect(results.map((r: { id: string; ok: boolean }) => [r.id, r.ok])).toEqual([
      [a.id, true],
      [t.company.adminId, false],
      [b.id, true],
      [unknown, false],
    ]);
    expect(results[0].user).toMatchObject({ status: 'inactive', version: 2 });
    expect(results[1].error).toMatchObject({ code: 'FORBIDDEN' });
    expect(results[1].error.message).toMatch(/your own roles, permissions or status/);
    expect(results[3].error).toMatchObject({ code: 'NOT_FOUND' });
    expect(response.json().message).toMatch(/2 could not be changed/);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.update'), eq(auditEvents.entityId, a.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      before: { status: 'active', version: 1 },
      after: { status: 'inactive', version: 2 },
    });
  });

  it('adds and removes roles relative to each user, under the no-escalation rule', async () => {
    const plain = await t.createUser({ roles: ['Bulk viewer'] });
    const other = await t.createUser();
    const limited = await t.createUser({ roles: ['Bulk viewer'] });
    const clerkRole = await t.createRole('Bulk clerk', ['users.read', 'users.update']);
    const clerk = await t.createUser({ roles: ['Bulk clerk'] });
    void clerkRole;
    const asAdmin = await bulk(admin, {
      ids: [plain.id, other.id],
      changes: { addRoleIds: [administratorRoleId], removeRoleIds: [viewerRoleId] },
    });
    expect(
      asAdmin.json().data.results.map((r: { user: { roleIds: string[] } }) => r.user.roleIds),
    ).toEqual([[administratorRoleId], [administratorRoleId]]);
    // The clerk may not give the Administrator role, nor touch a user more powerful than themselves.
    const clerkHeader = await t.authHeader(clerk.id);
    const asClerk = await bulk(clerkHeader, {
      ids: [limited.id, plain.id],
      changes: { addRoleIds: [administratorRoleId] },
    });
    const [first, second] = asClerk.json().data.results;
    expect(first).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(first.error.message).toMatch(/give these roles/);
    expect(second).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(second.error.message).toMatch(/change this user/);
    const unchanged = await bulk(clerkHeader, {
      ids: [limited.id],
      changes: { addRoleIds: [viewerRoleId] },
    });
    expect(unchanged.json().data.results[0]).toMatchObject({ ok: true, changed: false });
  });

  it('refuses a malformed bulk body or more than 1000 ids, changing nothing', async () => {
    const a = await t.createUser();
    for (const payload of [
      { ids: [a.id], changes: {} },
      { ids: [], changes: { status: 'locked' } },
      { ids: ['not-an-id'], changes: { status: 'locked' } },
      { ids: [a.id], changes: { status: 'gone' } },
      { ids: Array.from({ length: 1001 }, () => a.id), changes: { status: 'locked' } },
    ]) {
      expect((await bulk(admin, payload)).statusCode).toBe(400);
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, a.id));
    expect(row).toMatchObject({ status: 'active', version: 1 });
    const reader = await t.createUser({ roles: ['Bulk viewer'] });
    const denied = await bulk(await t.authHeader(reader.id), {
      ids: [a.id],
      changes: { status: 'locked' },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('lists the ids of every user a search and filter match', async () => {
    const response = await t.app.inject({
      url: '/api/users/ids?filters[status]=inactive',
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const { ids, total, truncated } = response.json().data;
    const inactive = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.status, 'inactive'));
    expect(total).toBe(inactive.length);
    expect([...ids].sort()).toEqual(inactive.map((row) => row.id).sort());
    expect(truncated).toBe(false);
  });

  it('restores a deleted user within the window: same id, roles and password; not before', async () => {
    const user = await t.createUser({ roles: ['Bulk viewer'] });
    await t.signIn(user.userName, user.password);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${user.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(200);
    expect(Date.parse(deleted.json().data.restorableUntil)).toBeGreaterThan(Date.now());
    // Deleted means gone: no sign-in, not listed, not readable.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { userName: user.userName, password: user.password },
    });
    expect(signIn.statusCode).toBe(401);
    const read = await t.app.inject({ url: `/api/users/${user.id}`, headers: admin });
    expect(read.statusCode).toBe(404);

    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/restore`,
      headers: admin,
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({
      _id: user.id,
      roleIds: [viewerRoleId],
      status: 'active',
    });
    await t.signIn(user.userName, user.password);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/restore`,
      headers: admin,
    });
    expect(again.statusCode).toBe(404);
    const events = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, user.id));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.delete', 'user.restore']),
    );
  });

  it('does not restore after the window, nor over a name taken meanwhile, nor for a weaker caller', async () => {
    const expired = await t.createUser();
    await t.app.inject({ method: 'DELETE', url: `/api/users/${expired.id}`, headers: admin });
    await t.db
      .update(deletedUsers)
      .set({ restorableUntil: new Date(Date.now() - 1000) })
      .where(eq(deletedUsers.id, expired.id));
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/users/${expired.id}/restore`,
      headers: admin,
    });
    expect(late.statusCode).toBe(404);

    const taken = await t.createUser();
    await t.app.inject({ method: 'DELETE', url: `/api/users/${taken.id}`, headers: admin });
    const newcomer = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        userName: taken.userName,
        email: `other-${taken.email}`,
        userFirstName: 'New',
        userLastName: 'Comer',
        password: 'a long enough passphrase',
      },
    });
    expect(newcomer.statusCode).toBe(201);
    const clash = await t.app.inject({
      method: 'POST',
      url: `/api/users/${taken.id}/restore`,
      headers: admin,
    });
    expect(clash.statusCode).toBe(409);

    const powerful = await t.createUser({ roles: ['Administrator'] });
    await t.app.inject({ method: 'DELETE', url: `/api/users/${powerful.id}`, headers: admin });
    await t.createRole('Bulk deleter', ['users.read', 'users.delete']);
    const deleter = await t.createUser({ roles: ['Bulk deleter'] });
    const weak = await t.app.inject({
      method: 'POST',
      url: `/api/users/${powerful.id}/restore`,
      headers: await t.authHeader(deleter.id),
    });
    expect(weak.statusCode).toBe(403);
    const other = await t.createCompany('Bulk Other Co');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/users/${powerful.id}/restore`,
      headers: await t.authHeader(other.adminId),
    });
    expect(foreign.statusCode).toBe(404);
  });
});
