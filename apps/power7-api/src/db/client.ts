import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

/** The one database type the code sees; PGlite and node-postgres both satisfy it. */
export type Power7Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabase {
  db: Power7Db;
  driver: 'pglite' | 'postgres';
  check(): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');
/** Own migrations bookkeeping, so a PostgreSQL server shared with the portal keeps both histories apart. */
const MIGRATIONS_SCHEMA = 'power7_drizzle';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the PGlite folder for this process (a lock file beside it holds our pid). A lock of a dead
 * process (a crash, kill -9) is taken over; a live holder makes us refuse: two PGlite processes on
 * one folder corrupt it.
 */
function lockFolder(folder: string): () => void {
  const lockFile = `${folder}.lock`;
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.rmSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(
          `The database folder ${folder} is in use by process ${pid} (PGlite allows one process per folder). ` +
            'Stop that process first, or point DATABASE_URL at a PostgreSQL server.',
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${folder}.`);
}

/**
 * Opens the session-metadata database and applies pending migrations: PostgreSQL when DATABASE_URL is
 * set, otherwise PGlite in `${DATA_DIR}/power7-db` (never the portal's folder).
 */
export async function openDatabase(options: {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}): Promise<OpenDatabase> {
  if (options.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: options.DATABASE_URL, max: 10 });
    const db = drizzlePg(pool, { schema });
    try {
      await migratePg(db, {
        migrationsFolder: MIGRATIONS_FOLDER,
        migrationsSchema: MIGRATIONS_SCHEMA,
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db: db as unknown as Power7Db,
      driver: 'postgres',
      check: async () => {
        await db.execute(sql`select 1`);
        return true;
      },
      close: () => pool.end(),
    };
  }
  const folder = path.join(options.DATA_DIR, 'power7-db');
  const unlock = lockFolder(folder);
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir: folder });
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, {
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: MIGRATIONS_SCHEMA,
    });
  } catch (error) {
    await client.close();
    unlock();
    throw error;
  }
  return {
    db: db as unknown as Power7Db,
    driver: 'pglite',
    check: async () => {
      await db.execute(sql`select 1`);
      return true;
    },
    close: async () => {
      if (!client.closed) await client.close();
      unlock();
    },
  };
}
