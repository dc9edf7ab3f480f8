import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRoles, users } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

interface Listed {
  _id: string;
  userName: string;
  userFirstName: string;
  userLastName: string;
  status: string;
}

/** The list protocol (docs/product/services.md §4) through the users list: paging, sort, search, filters, limits. */
describe.each(DATABASES)('list protocol on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  const lastNames = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
  let roleId: string;
  let inRole: string[];
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    // 24 users: 5 last names × first names, 4 of them locked; one with LIKE wildcards in its name.
    const rows = Array.from({ length: 24 }, (_, i) => ({
      companyId: t.company.companyId,
      userName: `lister-${String(i).padStart(2, '0')}`,
      email: `lister-${i}@list.test`,
      userFirstName: `first${String(i % 7).padStart(2, '0')}`,
      userLastName: i === 23 ? 'fifty%_off' : (lastNames[i % 5] ?? ''),
      status: i % 6 === 0 ? ('locked' as const) : ('active' as const),
      passwordHash: 'not-a-real-hash',
    }));
    const inserted = await t.db.insert(users).values(rows).returning({ id: users.id });
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: 'Listed' },
    });
    roleId = role.json().data._id;
    inRole = inserted.slice(0, 3).map((r) => r.id);
    await t.db
      .insert(userRoles)
      .values(inRole.map((userId) => ({ userId, roleId, companyId: t.company.companyId })));
  });
  afterAll(() => t?.close());

  const list = async (query: string) => {
    const response = await t.app.inject({ url: `/api/users?${query}`, headers: admin });
    return { status: response.statusCode, body: response.json() };
  };

  it('pages with totals (the admin + 24 users = 25)', async () => {
    const first = await list('page=1&pageSize=10');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, pageSize: 10, total: 25, totalPages: 3 });
    expect(first.body.data.items).toHaveLength(10);
    const last = await list('page=3&pageSize=10');
    expect(last.body.data.items).toHaveLength(5);
    const beyond = await list('page=9&pageSize=10');
    expect(beyond.body.data).toMatchObject({ items: [], total: 25, totalPages: 3 });
    const defaults = await list('');
    expect(defaults.body.data).toMatchObject({ page: 1, pageSize: 10 });
    // Pages do not overlap and together hold every user.
    const all = [
      ...first.body.data.items,
      ...(await list('page=2&pageSize=10')).body.data.items,
      ...last.body.data.items,
    ].map((u: Listed) => u._id);
    expect(new Set(all).size).toBe(25);
  });

  it('sorts by several fields, _id being time-ordered', async () => {
    const { body } = await list('pageSize=100&sort=userLastName:asc,userFirstName:desc');
    const items: Listed[] = body.data.items;
    const expected = [...items].sort(
      (a, b) =>
        a.userLastName.localeCompare(b.userLastName) ||
        b.userFirstName.localeCompare(a.userFirstName) ||
        a._id.localeCompare(b._id),
    );
    expect(items.map((u) => u._id)).toEqual(expected.map((u) => u._id));
    const newest = await list('pageSize=100&sort=_id:desc');
    const idsDesc = newest.body.data.items.map((u: Listed) => u._id);
    expect(idsDesc).toEqual([...idsDesc].sort().reverse());
    expect(idsDesc.at(-1)).toBe(t.company.adminId);
  });

  it('searches case-insensitively, with LIKE wildcards taken literally', async () => {
    const charlie = await list('search=CHARLIE&pageSize=100');
    expect(charlie.body.data.total).toBe(5);
    expect(charlie.body.data.items.every((u: Listed) => u.userLastName === 'charlie')).toBe(true);
    const byEmail = await list('search=lister-1%40LIST');
    expect(byEmail.body.data.total).toBe(1);
    const percent = await list(`search=${encodeURIComponent('%_')}`);
    expect(percent.body.data.total).toBe(1);
    expect(percent.body.data.items[0].userLastName).toBe('fifty%_off');
    const nothing = await list('search=zzzz-nobody');
    expect(nothing.body.data).toMatchObject({ items: [], total: 0, totalPages: 0 });
  });

  it('filters by status and role (filters[field]=value)', async () => {
    const locked = await list('filters[status]=locked&pageSize=100');
    expect(locked.status).toBe(200);
    expect(locked.body.data.total).toBe(4);
    expect(locked.body.data.items.every((u: Listed) => u.status === 'locked')).toBe(true);
    const encoded = await list(`${encodeURIComponent('filters[status]')}=locked`);
    expect(encoded.body.data.total).toBe(4);
    const role = await list(`filters[roleId]=${roleId}&sort=_id:asc`);
    expect(role.body.data.items.map((u: Listed) => u._id)).toEqual(inRole);
    const both = await list(`filters[roleId]=${roleId}&filters[status]=locked`);
    expect(both.body.data.total).toBe(1);
    const combined = await list('filters[status]=active&search=alpha');
    expect(combined.body.data.total).toBe(4);
  });

  it('refuses pageSize 101, an unknown sort field, an unknown or bad filter with 400', async () => {
    const big = await list('pageSize=101');
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(big.body.errors[0].field).toBe('pageSize');
    const zero = await list('page=0');
    expect(zero.body.errors[0].field).toBe('page');
    const sort = await list('sort=passwordHash:asc');
    expect(sort.status).toBe(400);
    expect(sort.body.errors[0].field).toBe('sort');
    const order = await list('sort=userName:sideways');
    expect(order.status).toBe(400);
    const unknown = await list('filters[companyId]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('filters.companyId');
    const status = await list('filters[status]=sleeping');
    expect(status.status).toBe(400);
    expect(status.body.errors[0].field).toBe('filters.status');
  });

  it('lists roles and permissions with their own filters and sorts', async () => {
    const system = await t.app.inject({
      url: '/api/roles?filters[isSystem]=true',
      headers: admin,
    });
    expect(system.json().data.items.map((r: { name: string }) => r.name)).toEqual([
      'Administrator',
    ]);
    const roleSort = await t.app.inject({ url: '/api/roles?sort=userCount:desc', headers: admin });
    expect(roleSort.json().data.items.map((r: { userCount: number }) => r.userCount)).toEqual([
      3, 1,
    ]);
    const group = await t.app.inject({
      url: '/api/permissions?filters[group]=users&sort=code:asc',
      headers: admin,
    });
    expect(group.json().data.items.map((p: { code: string }) => p.code)).toEqual([
      'users.create',
      'users.delete',
      'users.read',
      'users.update',
    ]);
    const search = await t.app.inject({ url: '/api/permissions?search=POWER7', headers: admin });
    expect(search.json().data.total).toBe(3);
    const bad = await t.app.inject({ url: '/api/permissions?sort=secret:asc', headers: admin });
    expect(bad.statusCode).toBe(400);
    const badFlag = await t.app.inject({
      url: '/api/roles?filters[isSystem]=maybe',
      headers: admin,
    });
    expect(badFlag.json().errors[0].field).toBe('filters.isSystem');
  });
});
