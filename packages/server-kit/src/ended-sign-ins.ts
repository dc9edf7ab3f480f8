import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * How an ended sign-in is published in the portal's public list (`/api/.well-known/revoked-sessions`):
 * the SHA-256 of its id (the token's `sid`), hex. Sign-in ids are UUIDv7, whose first 48 bits are
 * the time of the sign-in; the hash hides it (and its 74 random bits make it impossible to undo),
 * while a service holding a token computes the same key from its `sid`, with no secret to share.
 */
export function endedSignInKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** A Drizzle database of either service (node-postgres and PGlite both answer `{ rows }`). */
interface SqlRunner {
  execute(query: SQL): Promise<unknown>;
}

const rowsOf = async <T>(db: SqlRunner, query: SQL) =>
  ((await db.execute(query)) as { rows: T[] }).rows;

/**
 * The one query of the portal's `sign_ins` table that both services run: the keys (`endedSignInKey`)
 * of the sign-ins ended (sign-out, password change or reset, user set inactive or deleted, refresh-token
 * reuse, revocation) within the last `windowSeconds`, by the database's clock. Their access tokens may
 * still be unexpired, so a service verifying tokens locally refuses a token whose `sid`'s key is
 * listed. The portal publishes this list; Power 7 reads it here when it shares the portal's database.
 */
export async function endedSignInKeys(db: SqlRunner, windowSeconds: number): Promise<string[]> {
  const ended = await rowsOf<{ id: string }>(
    db,
    sql`select id::text as id from sign_ins where revoked_at > now() - make_interval(secs => ${windowSeconds})`,
  );
  return ended.map((row) => endedSignInKey(row.id));
}

/**
 * Whether this database holds the portal's `sign_ins` table (a service sharing the portal's
 * database); `to_regclass` looks without an error in the server's log.
 */
export async function holdsSignIns(db: SqlRunner): Promise<boolean> {
  const [found] = await rowsOf<{ shared: boolean }>(
    db,
    sql`select to_regclass('sign_ins') is not null as shared`,
  );
  return found?.shared === true;
}
