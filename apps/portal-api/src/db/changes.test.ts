import type { PGlite } from '@electric-sql/pglite';
import { emptyPglite } from '@pa/server-kit/testing/empty-pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataChanges, statementKind, trackPgliteWrites } from './changes';

describe('statementKind', () => {
  it('tells reads, writes and transaction bounds apart', () => {
    expect(statementKind('select "id" from "users" where "id" = $1')).toBe('read');
    expect(statementKind('  SELECT 1 FOR UPDATE')).toBe('read');
    expect(statementKind('set random_page_cost = 1.1')).toBe('read');
    expect(statementKind('update "users" set "status" = $1 where "id" = $2')).toBe('write');
    expect(statementKind('insert into "user_roles" ("user_id") values ($1)')).toBe('write');
    expect(statementKind('delete from "roles" where "id" = $1')).toBe('write');
    expect(statementKind('with x as (delete from "roles" returning 1) select * from x')).toBe(
      'write',
    );
    expect(statementKind('lock table "companies"')).toBe('write');
    expect(statementKind('begin')).toBe('begin');
    expect(statementKind('COMMIT')).toBe('end');
    expect(statementKind('rollback')).toBe('end');
  });

  it('leaves out writes that cannot change who may do what', () => {
    expect(statementKind('insert into "audit_events" ("id") values ($1)')).toBe('read');
    expect(statementKind('insert into "mail_outbox" ("id") values ($1)')).toBe('read');
    expect(statementKind('insert into "refresh_tokens" ("id") values ($1)')).toBe('read');
    expect(
      statementKind('update "sign_ins" set "last_used_at" = $1 where ("sign_ins"."id" = $2)'),
    ).toBe('read');
    // …but not a revocation, nor a touch that also sets something else.
    expect(statementKind('update "sign_ins" set "revoked_at" = $1 where "id" = $2')).toBe('write');
    expect(statementKind('update "sign_ins" set "last_used_at" = $1, "revoked_at" = $2')).toBe(
      'write',
    );
  });
});

describe('trackPgliteWrites', () => {
  let client: PGlite;
  const changes = new DataChanges();
  beforeAll(async () => {
    client = await emptyPglite();
    trackPgliteWrites(client, changes);
    await client.exec('create table t (id int primary key, v text)');
  });
  afterAll(() => client?.close());

  it('bumps after a write statement, not after a read', async () => {
    const start = changes.generation;
    await client.query('select * from t');
    expect(changes.generation).toBe(start);
    await client.query('insert into t values ($1, $2)', [1, 'a']);
    expect(changes.generation).toBe(start + 1);
  });

  it('bumps when a transaction ended, after its commit or rollback', async () => {
    const start = changes.generation;
    let during = -1;
    await client.transaction(async (tx) => {
      await tx.query(`update t set v = 'b' where id = 1`);
      during = changes.generation;
    });
    expect(during).toBe(start);
    expect(changes.generation).toBe(start + 1);
    await expect(
      client.transaction(async (tx) => {
        await tx.query(`update t set v = 'c' where id = 1`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(changes.generation).toBe(start + 2);
    expect((await client.query<{ v: string }>('select v from t')).rows).toEqual([{ v: 'b' }]);
  });
});
