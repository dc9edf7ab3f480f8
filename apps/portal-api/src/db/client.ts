import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrateOrClose, openPostgresPool, roundTrip } from '@pa/server-kit/database';
import { DataFolderHeldError, folderHolder, openPglite } from '@pa/server-kit/pglite';
import { DataChanges, trackPgliteWrites, trackPoolWrites } from './changes';
import { pgliteMaintenance } from './maintenance';
import * as schema from './schema';

/** The one database type the code sees; PGlite and node-postgres both satisfy it. */
export type PortalDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction or the database itself: helpers that may run inside a transaction take this. */
export type PortalTx = Parameters<Parameters<PortalDb['transaction']>[0]>[0] | PortalDb;

export interface OpenDatabase {
  db: PortalDb;
  driver: 'pglite' | 'postgres';
  /** Counts this process's committed writes (the auth cache's invalidation, ADR 004). */
  changes: DataChanges;
  /**
   * PGlite: vacuums/analyses the tables that need it now (it also runs by itself ~1 s after writes,
   * db/maintenance.ts). PostgreSQL: nothing, the server's autovacuum does it.
   */
  maintain(): Promise<void>;
  /** Readiness check: one round trip. */
  check(): Promise<boolean>;
  /** PGlite only: a consistent copy of the data folder (tar.gz) taken while it runs (backups). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
  /** PGlite only: run in memory (tests) instead of `${DATA_DIR}/portal-db`. */
  inMemory?: boolean;
  /** PGlite only: an already opened instance (tests clone a migrated template). */
  pglite?: PGlite;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');

// One process per PGlite folder: the lock and its error live in server-kit (shared with Power 7).
export { DataFolderHeldError, folderHolder };

/**
 * Opens the portal database and applies pending migrations: PostgreSQL when DATABASE_URL is set,
 * otherwise PGlite in `${DATA_DIR}/portal-db` (or in memory for tests).
 */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  if (options.DATABASE_URL) {
    const pool = openPostgresPool(options.DATABASE_URL);
    const changes = new DataChanges();
    trackPoolWrites(pool, changes);
    const db = drizzlePg(pool, { schema });
    await migrateOrClose(
      () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      () => pool.end(),
    );
    return {
      db: db as unknown as PortalDb,
      driver: 'postgres',
      changes,
      maintain: async () => {},
      check: roundTrip(db),
      close: () => pool.end(),
    };
  }

  let client = options.pglite;
  /** Closes a PGlite this function opened in the data folder and releases the folder. */
  let release: (() => Promise<void>) | undefined;
  if (!client) {
    if (options.inMemory) {
      client = await PGlite.create();
    } else {
      const opened = await openPglite(path.join(options.DATA_DIR, 'portal-db'));
      client = opened.client;
      release = opened.close;
    }
  }
  const pglite = client;
  // PGlite keeps every page in memory: the default random_page_cost (4, a spinning disk) makes the
  // planner sort a whole company's users for a deep list page instead of walking the matching index
  // (bench/portal.bench.ts: deep page p50 ~31 → ~13 ms at 10,000 users).
  await pglite.exec('set random_page_cost = 1.1');
  const changes = new DataChanges();
  trackPgliteWrites(pglite, changes);
  const db = drizzlePglite(pglite, { schema });
  await migrateOrClose(
    () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    () => (release ? release() : pglite.close()),
  );
  const maintenance = pgliteMaintenance(pglite, changes);
  // statistics refreshed in the background: the start does not wait for them (queries queue behind)
  void maintenance.run();
  return {
    db: db as unknown as PortalDb,
    driver: 'pglite',
    changes,
    maintain: () => maintenance.run(),
    check: roundTrip(db),
    dump: () => pglite.dumpDataDir('gzip'),
    close: async () => {
      await maintenance.stop();
      if (release) await release();
      else if (!pglite.closed) await pglite.close();
    },
  };
}
