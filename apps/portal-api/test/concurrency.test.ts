import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DATABASES, type TestApp } from './helper';

/** Optimistic concurrency: of two updates based on one version, one wins and one answers 409. */
describe.each(DATABASES)('concurrent updates on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
  });
  afterAll(() => t?.close());

  it('two user updates from the same version: one 200, one 409, nothing lost', async () => {
    const user = await t.createUser();
    const read = await t.app.inject({ url: `/api/users/${user.id}`, headers: admin });
    const version = read.json().data.version as number;
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/users/${user.id}`,
        headers: admin,
        payload: { version, ...payload },
      });
    const answers = await Promise.all([
      patch({ userFirstName: 'Ann' }),
      patch({ phone: '555 01' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json()).toMatchObject({ code: 'CONFLICT' });
    expect(loser.json().message).toMatch(/Someone else changed this user/);
    const winner = answers.find((a) => a.statusCode === 200)!.json().data;
    expect(winner.version).toBe(version + 1);

    // The loser re-reads and applies again: both changes are kept.
    const retry = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: admin,
      payload:
        winner.userFirstName === 'Ann'
          ? { version: winner.version, phone: '555 01' }
          : { version: winner.version, userFirstName: 'Ann' },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toMatchObject({
      userFirstName: 'Ann',
      phone: '555 01',
      version: version + 2,
    });
  });

  it('two role updates from the same version: one 200, one 409', async () => {
    const role = (
      await t.app.inject({
        method: 'POST',
        url: '/api/roles',
        headers: admin,
        payload: { name: 'Contested' },
      })
    ).json().data;
    const answers = await Promise.all(
      ['First', 'Second'].map((description) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/roles/${role._id}`,
          headers: admin,
          payload: { version: role.version, description },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const stored = await t.app.inject({ url: `/api/roles/${role._id}`, headers: admin });
    const winner = answers.find((a) => a.statusCode === 200)!.json().data;
    expect(stored.json().data).toMatchObject({ description: winner.description, version: 2 });
  });
});
