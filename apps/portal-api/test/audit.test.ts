import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

interface Event {
  _id: string;
  action: string;
  entityType: string;
  actorId: string | null;
  createdAt: string;
}

/** `GET /api/audit-events`: the company's trail with the list protocol, behind audit.read. */
describe.each(DATABASES)('audit trail listing on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  let userId: string;
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    await t.signIn('admin', t.company.adminPassword);
    await t.app
      .inject({
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { userName: 'admin', password: 'wrong password here' },
      })
      .then((r) => expect(r.statusCode).toBe(401));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        userName: 'audited',
        email: 'audited@example.test',
        userFirstName: 'Aud',
        userLastName: 'Ited',
        password: 'a long enough passphrase',
      },
    });
    userId = created.json().data._id;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      headers: admin,
      payload: { version: 1, status: 'locked' },
    });
  });
  afterAll(() => t?.close());

  const list = async (query: string, headers = admin) => {
    const response = await t.app.inject({ url: `/api/audit-events?${query}`, headers });
    return { status: response.statusCode, body: response.json() };
  };

  it('lists the company’s events newest first, sign-ins and resource changes included', async () => {
    const { status, body } = await list('pageSize=100');
    expect(status).toBe(200);
    const items: Event[] = body.data.items;
    const ids = items.map((e) => e._id);
    expect(ids).toEqual([...ids].sort().reverse());
    const actions = items.map((e) => e.action);
    expect(actions[0]).toBe('user.update');
    expect(actions).toContain('user.create');
    expect(actions.some((a) => a.includes('sign-in'))).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/passphrase|wrong password here/);
    const update = items[0] as Event & { before: unknown; after: unknown; ip: string };
    expect(update).toMatchObject({
      entityType: 'user',
      actorId: t.company.adminId,
      before: { status: 'active', version: 1 },
      after: { status: 'locked', version: 2 },
    });
  });

  it('filters by action, entity, actor and dates; searches; sorts', async () => {
    const byAction = await list('filters[action]=user.create');
    expect(byAction.body.data.total).toBe(1);
    const byEntity = await list(`filters[entityType]=user&filters[entityId]=${userId}`);
    expect(byEntity.body.data.items.map((e: Event) => e.action)).toEqual([
      'user.update',
      'user.create',
    ]);
    const byActor = await list(`filters[actorId]=${t.company.adminId}&pageSize=100`);
    expect(byActor.body.data.items.every((e: Event) => e.actorId === t.company.adminId)).toBe(true);
    expect(byActor.body.data.total).toBeGreaterThanOrEqual(2);
    const future = await list('filters[from]=2999-01-01');
    expect(future.body.data.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const all = await list('pageSize=1');
    const untilToday = await list(`filters[from]=2000-01-01&filters[to]=${today}`);
    expect(untilToday.body.data.total).toBe(all.body.data.total);
    const past = await list('filters[to]=2000-01-01T00:00:00Z');
    expect(past.body.data.total).toBe(0);
    const search = await list('search=USER.CREATE');
    expect(search.body.data.total).toBe(1);
    const sorted = await list('sort=action:asc,_id:desc&pageSize=100');
    const actions = sorted.body.data.items.map((e: Event) => e.action);
    expect(actions).toEqual([...actions].sort());
  });

  it('validates its query, naming the field', async () => {
    expect((await list('filters[from]=yesterday')).body.errors[0].field).toBe('filters.from');
    expect((await list('filters[actorId]=me')).body.errors[0].field).toBe('filters.actorId');
    expect((await list('sort=ip:asc')).status).toBe(400);
    expect((await list('pageSize=101')).status).toBe(400);
  });

  it('answers 401 without a token and 403 without audit.read', async () => {
    const anonymous = await t.app.inject({ url: '/api/audit-events' });
    expect(anonymous.statusCode).toBe(401);
    const plain = await t.createUser();
    const denied = await list('', await t.authHeader(plain.id));
    expect(denied.status).toBe(403);
  });
});

interface Recorded extends Event {
  actorName: string;
  entityId: string | null;
  entityName: string | null;
  after: Record<string, unknown> | null;
  names: Record<string, string>;
  requestId: string | null;
  requestEvents: number;
}

// Refusals and sign-outs in the trail (issue #24): who was refused what, and every event names its actor.
describe('refused requests and sign-outs in the audit trail', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.authHeader();
  });
  afterAll(() => t?.close());

  const events = async (query: string): Promise<Recorded[]> => {
    const response = await t.app.inject({ url: `/api/audit-events?${query}`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.items;
  };

  it('records every 403 of a signed-in caller once, with route, missing permission and actor; no body', async () => {
    const plain = await t.createUser();
    const headers = await t.authHeader(plain.id);
    const list = await t.app.inject({ url: '/api/users?search=secret-query', headers });
    expect(list.statusCode).toBe(403);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { userName: 'sneaky', email: 's@example.test', password: 'body-secret-passphrase' },
    });
    expect(create.statusCode).toBe(403);
    // A refusal by a route's own rule, not a permission check: changing one's own status.
    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${t.company.adminId}`,
      headers: admin,
      payload: { version: 1, status: 'locked' },
    });
    expect(self.statusCode).toBe(403);
    // Not signed in: a 401, nobody to name, nothing recorded.
    expect((await t.app.inject({ url: '/api/users' })).statusCode).toBe(401);

    const denied = await events('filters[action]=access.denied&sort=_id:asc');
    expect(denied).toHaveLength(3);
    expect(denied[0]).toMatchObject({
      actorId: plain.id,
      actorName: plain.userName,
      entityType: 'route',
      entityId: 'GET /api/users',
      after: { method: 'GET', route: '/api/users', missingPermissions: ['users.read'] },
    });
    expect(denied[1]).toMatchObject({
      entityId: 'POST /api/users',
      after: { missingPermissions: ['users.create'] },
    });
    expect(denied[2]).toMatchObject({
      actorId: t.company.adminId,
      actorName: 'admin',
      entityId: 'PATCH /api/users/:id',
      after: { reason: 'You cannot change your own roles, permissions or status.' },
    });
    expect(JSON.stringify(denied)).not.toMatch(/body-secret-passphrase|sneaky|secret-query/);
  });

  it('names the actor of a sign-out, and of every event', async () => {
    const user = await t.createUser();
    const signedIn = await t.signIn(user.userName, user.password);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/signout',
      headers: { authorization: `Bearer ${signedIn.accessToken}` },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const [signOut] = await events(`filters[action]=account.sign-out&filters[actorId]=${user.id}`);
    expect(signOut).toMatchObject({ actorId: user.id, actorName: user.userName });
    const all = await events('pageSize=100');
    expect(all.length).toBeGreaterThan(3);
    expect(all.filter((event) => !event.actorName)).toEqual([]);
  });

  it('names invitations by their email and the company by its name', async () => {
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/users/invitations',
      headers: admin,
      payload: { email: 'named.invitee@example.test' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const id = invited.json().data._id;
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/users/invitations/${id}/resend`,
      headers: admin,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    // a resend records only the new expiry: the name comes from the invitation itself
    const [resend] = await events(`filters[action]=invitation.resend&filters[entityId]=${id}`);
    expect(resend).toMatchObject({
      entityType: 'invitation',
      entityName: 'named.invitee@example.test',
    });
    const policy = await t.app.inject({
      method: 'PUT',
      url: '/api/security/mfa-policy',
      headers: admin,
      payload: { requireFor: 'nobody', permissionCodes: [] },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const [change] = await events('filters[action]=company.mfa-policy-change');
    const [company] = await t.db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, t.company.companyId));
    expect(change).toMatchObject({ entityType: 'company', entityName: company!.name });
  });

  it('groups the events of one bulk change into one entry on request, and lists them by request id', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 3; n += 1) ids.push((await t.createUser()).id);
    const bulk = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/bulk',
      headers: admin,
      payload: { ids, changes: { status: 'inactive' } },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const each = await events('filters[action]=user.update&pageSize=100');
    const ofBulk = each.filter((e) => ids.includes(e.entityId!));
    expect(ofBulk).toHaveLength(3);
    const requestId = ofBulk[0]!.requestId!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ofBulk.every((e) => e.requestId === requestId && e.requestEvents === 1)).toBe(true);

    const list = async (query: string) => {
      const response = await t.app.inject({ url: `/api/audit-events?${query}`, headers: admin });
      return { status: response.statusCode, body: response.json() };
    };
    const grouped = await list('filters[group]=request&pageSize=100');
    expect(grouped.status).toBe(200);
    const entries: Recorded[] = grouped.body.data.items;
    const ofRequest = entries.filter((e) => e.requestId === requestId);
    expect(ofRequest).toHaveLength(1);
    expect(ofRequest[0]).toMatchObject({ action: 'user.update', requestEvents: 3 });
    // events recorded alone stay single entries, and the count is of entries
    expect(entries.filter((e) => e.requestId === null).every((e) => e.requestEvents === 1)).toBe(
      true,
    );
    const all = await list('pageSize=100');
    expect(grouped.body.data.total).toBe(all.body.data.total - 2);

    const members = await events(`filters[requestId]=${requestId}`);
    expect(members.map((e) => e.entityId).sort()).toEqual([...ids].sort());
    expect((await list('filters[group]=all')).status).toBe(400);
  });
});
