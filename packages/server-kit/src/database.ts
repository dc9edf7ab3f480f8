import { sql } from 'drizzle-orm';
import pg from 'pg';

/**
 * The steps both services' database clients share (PGlite or PostgreSQL, Drizzle on top): a pool for
 * DATABASE_URL, migrations that close what was opened when they fail, and the readiness round trip.
 */

/**
 * A node-postgres pool for DATABASE_URL (10 connections per process). When the server restarts, its
 * idle connections end with an 'error' event: unheard, it would take the whole process down; heard,
 * the pool drops them and the next query connects again. A connect waits 5 s at most, so a request
 * meets a clear "unavailable" instead of hanging while the server is away.
 */
export function openPostgresPool(
  url: string,
  onIdleError: (error: Error) => void = () => {},
): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  pool.on('error', onIdleError);
  return pool;
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
