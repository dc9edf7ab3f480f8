import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../src/db/schema';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('CSV import of users on %s', (database) => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp({ database });
    admin = await t.authHeader();
    await t.createRole('Import viewer', ['users.read']);
  });
  afterAll(() => t?.close());

  const importCsv = (csv: string, dryRun: boolean, headers = admin) =>
    t.app.inject({
      method: 'POST',
      url: `/api/users/import?dryRun=${dryRun}`,
      headers,
      payload: { csv },
    });

  const csv = [
    '\uFEFFEmail,User Name,First name,Last name,Phone,Roles,Status',
    'ann@import.test,ann.import,Ann,Import,+1 555 0101,Import viewer,active',
    'bad-email,bo.import,Bo,Import,,No such role,sleeping',
    'cy@import.test,cy.import,Cy,"Import, Jr.",,,locked',
    'ANN@import.test,ann.import,Ann,Twice,,,',
  ].join('\r\n');

  it('dry run reports every row (errors per field) and writes nothing', async () => {
    const response = await importCsv(csv, true);
    expect(response.statusCode).toBe(200);
    const answer = response.json().data;
    expect(answer).toMatchObject({ dryRun: true, valid: 2, invalid: 2, created: 0 });
    expect(answer.rows.map((r: { line: number; outcome: string }) => [r.line, r.outcome])).toEqual([
      [2, 'create'],
      [3, 'error'],
      [4, 'create'],
      [5, 'error'],
    ]);
    const fields = (i: number) =>
      answer.rows[i].errors.map((e: { field: string }) => e.field).sort();
    expect(fields(1)).toEqual(['email', 'roles', 'status']);
    expect(fields(3)).toEqual(['email', 'userName']);
    const said = (i: number, field: string) =>
      answer.rows[i].errors.find((e: { field: string }) => e.field === field)?.message;
    // plain words, not the validator's `Invalid option: expected one of "active"|…`
    expect(said(1, 'status')).toBe('"sleeping" is not a status; use active, inactive or locked.');
    // a repeat in the file names the line it repeats
    expect(said(3, 'email')).toBe('The email ANN@import.test is on line 2 too.');
    expect(said(3, 'userName')).toBe('The user name "ann.import" is on line 2 too.');
    const made = await t.db
      .select()
      .from(users)
      .where(inArray(users.userName, ['ann.import', 'cy.import']));
    expect(made).toHaveLength(0);
  });

  it('apply creates the valid rows, reports the others, audits each', async () => {
    const response = await importCsv(csv, false);
    expect(response.statusCode).toBe(201);
    const answer = response.json().data;
    expect(answer).toMatchObject({ dryRun: false, created: 2, invalid: 2 });
    expect(answer.rows[0]).toMatchObject({ outcome: 'created', userId: expect.any(String) });
    const [cy] = await t.db.select().from(users).where(eq(users.userName, 'cy.import'));
    expect(cy).toMatchObject({ userLastName: 'Import, Jr.', status: 'locked' });
    const read = await t.app.inject({ url: `/api/users/${answer.rows[0].userId}`, headers: admin });
    expect(read.json().data.roleIds).toHaveLength(1);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['user.import', 'user.create']));
    expect(events.filter((e) => e.action === 'user.import')).toHaveLength(1);
    expect(events.filter((e) => e.entityId === cy!.id)).toHaveLength(1);
    // The same file again: every row is now taken.
    const again = await importCsv(csv, false);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ created: 0, invalid: 4 });
  });

  it('refuses an unreadable file, unknown or missing columns and too many rows', async () => {
    for (const bad of [
      'email,userName,firstName,lastName,shoeSize\r\na@b.test,ab.c,A,B,42',
      'email,userName,firstName\r\na@b.test,ab.c,A',
      'email,userName,firstName,lastName\r\n"a@b.test,ab.c,A,B',
      'email,userName,firstName,lastName',
      'email,userName,firstName,lastName\r\n' +
        Array.from({ length: 501 }, (_, i) => `u${i}@many.test,many${i},M,Any`).join('\r\n'),
    ]) {
      const response = await importCsv(bad, true);
      expect(response.statusCode, bad.slice(0, 60)).toBe(400);
      expect(response.json().errors[0]).toMatchObject({ field: 'csv' });
    }
    const tooLarge = await importCsv('x'.repeat(600 * 1024), true);
    expect([400, 413]).toContain(tooLarge.statusCode);
  });

  it('needs users.create, and only gives roles the caller holds', async () => {
    const reader = await t.createUser({ roles: ['Import viewer'] });
    const denied = await importCsv(csv, true, await t.authHeader(reader.id));
    expect(denied.statusCode).toBe(403);
    await t.createRole('Import clerk', ['users.read', 'users.create']);
    const clerk = await t.createUser({ roles: ['Import clerk'] });
    const response = await importCsv(
      'email,userName,firstName,lastName,roles\r\ndee@import.test,dee.import,Dee,Import,Administrator',
      false,
      await t.authHeader(clerk.id),
    );
    expect(response.json().data.rows[0]).toMatchObject({
      outcome: 'error',
      errors: [{ field: 'roles', message: expect.stringMatching(/permissions you do not hold/) }],
    });
    expect(await t.db.select().from(users).where(eq(users.userName, 'dee.import'))).toHaveLength(0);
  });
});
