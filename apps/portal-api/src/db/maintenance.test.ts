import type { PGlite } from '@electric-sql/pglite';
import { emptyPglite } from '@pa/server-kit/testing/empty-pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataChanges, trackPgliteWrites } from './changes';
import { pgliteMaintenance, type Maintenance } from './maintenance';

describe('PGlite maintenance (autovacuum stand-in)', () => {
  let client: PGlite;
  let maintenance: Maintenance;
  const changes = new DataChanges();
  const stats = async () => {
    await client.query('select pg_stat_force_next_flush()');
    return (
      await client.query<{ analyzed: boolean; modified: number }>(
        `select last_analyze is not null as analyzed, n_mod_since_analyze::int as modified
         from pg_stat_user_tables where relname = 'items'`,
      )
    ).rows[0];
  };

  beforeAll(async () => {
    client = await emptyPglite();
    trackPgliteWrites(client, changes);
    await client.exec('create table items (id int primary key, v text)');
    maintenance = pgliteMaintenance(client, changes, 20);
  });
  afterAll(async () => {
    await maintenance?.stop();
    await client?.close();
  });

  it('vacuums and analyses a table past the thresholds shortly after the writes', async () => {
    await client.query(`insert into items select g, 'x' || g from generate_series(1, 3000) g`);
    expect(await stats()).toEqual({ analyzed: false, modified: 3000 });
    await expect.poll(stats, { timeout: 5000, interval: 25 }).toEqual({
      analyzed: true,
      modified: 0,
    });
    // Vacuum and analyse are not writes: they leave the auth cache's generation alone.
    const generation = changes.generation;
    await maintenance.run();
    expect(changes.generation).toBe(generation);
  });

  it('leaves alone a table with few changes', async () => {
    await client.query(`update items set v = 'y' where id <= 10`);
    await maintenance.run();
    expect(await stats()).toEqual({ analyzed: true, modified: 10 });
  });
});
