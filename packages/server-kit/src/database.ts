import { sql } from 'drizzle-orm';
import pg from 'pg';

/**
 * The steps both services' database clients share (PGlite or PostgreSQL, Drizzle on top): a pool for
 * DATABASE_URL, migrations that close what was opened when they fail, and the readiness round trip.
 */

/** A node-postgres pool for DATABASE_URL (10 connections per process). */
export function openPostgresPool(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 10 });
}

/** Applies migrations; on failure closes the database first, so a refused start holds nothing open. */
export async function migrateOrClose(
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): Promise<void> {
  try {
    await migrate();
  } catch (error) {
    await close();
    throw error;
  }
}

/** The readiness check of a database: one round trip. */
export function roundTrip(db: { execute(query: ReturnType<typeof sql>): Promise<unknown> }) {
  return async () => {
    await db.execute(sql`select 1`);
    return true;
  };
}
