import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startTestPostgres } from './postgres-server';

describe('startTestPostgres', () => {
  it('starts a real server that accepts SQL, creates databases and stops', async () => {
    const pg = await startTestPostgres();
    try {
      const url = pg.createDatabase('probe_db');
      const out = execFileSync('psql', [url, '-qAtc', 'select 40 + 2, current_database()'])
        .toString()
        .trim();
      expect(out).toBe('42|probe_db');
    } finally {
      await pg.stop();
    }
  }, 60_000);
});
