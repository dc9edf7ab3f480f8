import type { PGlite } from '@electric-sql/pglite';
import type { DataChanges } from './changes';

/**
 * Tables past autovacuum's default thresholds (analyze after 50 + 10 % changed rows; vacuum after
 * 50 + 20 % dead rows or 1,000 + 20 % inserted rows).
 */
const DUE = `select relname from pg_stat_user_tables
  where n_mod_since_analyze > 50 + 0.1 * n_live_tup
     or n_dead_tup > 50 + 0.2 * n_live_tup
     or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
  order by relname`;

export interface Maintenance {
  /** Runs a check now (after any check already running) and vacuums/analyses what is due. */
  run(): Promise<void>;
  /** Stops scheduling and waits for a running check. */
  stop(): Promise<void>;
}

/**
 * PGlite runs PostgreSQL in single-user mode: no autovacuum. Without it the planner has no statistics
 * (it guessed 38 rows for a company of 10,000 users) and index-only scans visit the heap for every row
 * (no visibility map), which made the users list's count and deep pages several times slower
 * (bench/portal.bench.ts). This does autovacuum's job: `delayMs` after a write (at most one check per
 * `delayMs`), VACUUM ANALYZE every table past the default thresholds.
 */
export function pgliteMaintenance(
  client: PGlite,
  changes: DataChanges,
  delayMs = 1000,
  onError: (error: unknown) => void = (error) =>
    process.emitWarning(`PGlite maintenance (vacuum/analyze) failed: ${String(error)}`),
): Maintenance {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const check = async () => {
    if (stopped || client.closed) return;
    // Row counts reach pg_stat_user_tables at most once a second unless a flush is asked for.
    await client.query('select pg_stat_force_next_flush()');
    const due = await client.query<{ relname: string }>(DUE);
    for (const { relname } of due.rows) {
      if (stopped || client.closed) return;
      await client.exec(`vacuum analyze "${relname.replaceAll('"', '""')}"`);
    }
  };
  const run = () => {
    running = running.then(check).catch(onError);
    return running;
  };
  const unsubscribe = changes.onChange(() => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, delayMs);
    timer.unref();
  });
  return {
    run,
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await running;
    },
  };
}
