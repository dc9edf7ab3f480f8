import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrateOrClose, openPostgresPool, roundTrip } from '@pa/server-kit/database';
import { openPglite } from '@pa/server-kit/pglite';
import * as schema from './schema';

/** The one database type the code sees; PGlite and node-postgres both satisfy it. */
export type Power7Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabase {
  db: Power7Db;
  driver: 'pglite' | 'postgres';
  check(): Promise<boolean>;
  close(): Promise<void>;
  /** PGlite only: a consistent copy of the data folder (tar.gz) taken while it runs (backups). */
  dump?(): Promise<Blob>;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');
/** Own migrations bookkeeping, so a PostgreSQL server shared with the portal keeps both histories apart. */
const MIGRATIONS_SCHEMA = 'power7_drizzle';

/**
 * Opens the session-metadata database and applies pending migrations: PostgreSQL when DATABASE_URL is
 * set, otherwise PGlite in `${DATA_DIR}/power7-db` (never the portal's folder).
 */
export async function openDatabase(options: {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}): Promise<OpenDatabase> {
  if (options.DATABASE_URL) {
    const pool = openPostgresPool(options.DATABASE_URL);
    const db = drizzlePg(pool, { schema });
    await migrateOrClose(
      () =>
        migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }),
      () => pool.end(),
    );
    return {
      db: db as unknown as Power7Db,
      driver: 'postgres',
      check: roundTrip(db),
      close: () => pool.end(),
    };
  }
  // One process per folder (server-kit's lock file): a live holder makes the start refuse.
  const { client, close } = await openPglite(path.join(options.DATA_DIR, 'power7-db'));
  const db = drizzlePglite(client, { schema });
  await migrateOrClose(
    () =>
      migratePglite(db, {
        migrationsFolder: MIGRATIONS_FOLDER,
        migrationsSchema: MIGRATIONS_SCHEMA,
      }),
    close,
  );
  return {
    db: db as unknown as Power7Db,
    driver: 'pglite',
    check: roundTrip(db),
    dump: () => client.dumpDataDir('gzip'),
    close,
  };
}
