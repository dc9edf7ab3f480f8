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

/**
 * User names and emails are unique across companies. Created at once in two companies, several
 * requests pass the check before any has written; the unique index refuses all but one, and those
 * answer 409 like the check does (a real PostgreSQL server runs them in parallel; PGlite cannot).
 */
describe('the same user name or email created at once in two companies on postgres', () => {
  let t: TestApp;
  let admins: { authorization: string }[];
  beforeAll(async () => {
    t = await buildTestApp({ database: 'postgres' });
    const other = await t.createCompany('Rival Company');
    admins = [await t.authHeader(), await t.authHeader(other.adminId)];
  });
  afterAll(() => t?.close());

  const createAll = (payload: (i: number) => Record<string, string>) =>
    Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/users',
          headers: admins[i % 2],
          payload: {
            userFirstName: 'Race',
            userLastName: 'Runner',
            password: 'a long enough passphrase',
            ...payload(i),
          },
        }),
      ),
    );

  const expectOneCreated = (answers: Awaited<ReturnType<typeof createAll>>, message: RegExp) => {
    const statuses = answers.map((answer) => answer.statusCode);
    expect(
      statuses.filter((status) => status === 201),
      statuses.join(),
    ).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode !== 201);
    expect(refused.map((answer) => answer.statusCode)).toEqual(refused.map(() => 409));
    for (const answer of refused) {
      expect(answer.json()).toMatchObject({ success: false, code: 'CONFLICT', status: 409 });
      expect(answer.json().message).toMatch(message);
    }
  };

  // A few rounds: whether requests meet in the gap between check and insert is up to the scheduler.
  it('one user name: one 201, the rest 409 CONFLICT, never a 500', async () => {
    for (const round of [1, 2, 3]) {
      expectOneCreated(
        await createAll((i) => ({
          userName: `contested-${round}`,
          email: `contested-${round}-${i}@example.test`,
        })),
        /user name .*already taken/,
      );
    }
  });

  it('one email: one 201, the rest 409 CONFLICT', async () => {
    for (const round of [1, 2, 3]) {
      expectOneCreated(
        await createAll((i) => ({
          userName: `mailer-${round}-${i}`,
          email: `shared-${round}@example.test`,
        })),
        // The check's own answer, or the unique index's: never why (ADR 020).
        /email .*(already used|cannot be used)/,
      );
    }
  });
});
