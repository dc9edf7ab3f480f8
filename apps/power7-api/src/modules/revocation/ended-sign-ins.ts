import { ErrorCode } from '@pa/contracts/error-codes';
import { endedSignInKey, endedSignInKeys, holdsSignIns } from '@pa/server-kit/ended-sign-ins';
import { AppError } from '@pa/server-kit/errors';
import type { Power7Db } from '../../db/client';

/** How often the list of ended sign-ins is read: how long an ended one still works while all is well. */
const ENDED_SIGN_INS_POLL_MS = 2_000;

/**
 * Until the first list is read, failed reads are retried this soon: readiness waits on it, and under
 * `npm start` the portal answers a moment after this service (a refused connection costs ~1 ms).
 */
const FIRST_READ_RETRY_MS = 50;
/** How long after the start a portal that never answered is taken to be starting: not logged. */
const PORTAL_START_GRACE_MS = 30_000;

interface Log {
  warn(object: object, message: string): void;
}

/**
 * Where the ended sign-ins come from, as the portal publishes them: keys (`endedSignInKey` of each
 * sign-in id, which hides the time a UUIDv7 id tells); `read()` throws when it cannot tell.
 */
export interface EndedSignInsSource {
  read(): Promise<string[]>;
}

/**
 * The portal's list (`/api/.well-known/revoked-sessions`, beside its JWKS). With several portals on
 * separate databases this is only the one portal's view, hence the database source when it is shared.
 */
function portalSource(url: string, timeoutMs = ENDED_SIGN_INS_POLL_MS): EndedSignInsSource {
  return {
    async read() {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`the portal answered ${response.status}`);
      const body = (await response.json()) as { data?: { sessionIds?: unknown } };
      const list = body.data?.sessionIds;
      if (!Array.isArray(list)) throw new Error('the answer holds no sessionIds');
      return list.filter((id): id is string => typeof id === 'string');
    },
  };
}

/**
 * The portal's own table when Power 7 shares its PostgreSQL database (same DATABASE_URL): every
 * portal process writes its sign-outs there, so none is missed while one portal is down. A read-only
 * query of the sign-ins ended within `windowSeconds` (the access-token lifetime plus a minute, as the
 * portal's route answers). While the database holds no `sign_ins` table (the portals keep their own
 * database, or have not migrated yet) each read asks `fallback` (the portal) instead. The query is
 * the portal's own (`endedSignInKeys` in server-kit), so both read the table alike.
 */
function databaseSource(
  db: Power7Db,
  windowSeconds: number,
  fallback: EndedSignInsSource,
): EndedSignInsSource {
  let shared = false;
  return {
    async read() {
      if (!shared) {
        shared = await holdsSignIns(db);
        if (!shared) return fallback.read();
      }
      return endedSignInKeys(db, windowSeconds);
    },
  };
}

/**
 * The sign-ins the portal ended, whose unexpired tokens are refused. Fails closed: until a first list
 * is read, and whenever the last one read is older than `maxStalenessMs`, `assertFresh()` throws 503
 * (tokens are refused, not trusted) and readiness fails. Tokens stay verified locally; only their
 * `sid` is checked against the list.
 */
export class EndedSignIns {
  private ids = new Set<string>();
  private readAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = false;
  private failing = false;
  private lastError: unknown = null;

  private startedAt = 0;

  constructor(
    private readonly source: EndedSignInsSource,
    private readonly maxStalenessMs: number,
    private readonly intervalMs = ENDED_SIGN_INS_POLL_MS,
    private readonly startGraceMs = PORTAL_START_GRACE_MS,
  ) {}

  has(sessionId: string): boolean {
    return this.ids.has(endedSignInKey(sessionId));
  }

  /** The list is recent enough to trust; otherwise 503 (nobody's fault but the service's). */
  assertFresh(now = Date.now()): void {
    if (this.readAt !== null && now - this.readAt <= this.maxStalenessMs) return;
    throw new AppError(
      ErrorCode.SERVICE_UNAVAILABLE,
      'Cannot check sign-ins right now; please try again shortly.',
    );
  }

  /** Readiness: a fresh list (the reason why not, when not). */
  check(): boolean {
    if (this.readAt === null) {
      throw new Error(`no list of ended sign-ins read yet: ${describe(this.lastError)}`);
    }
    const age = Date.now() - this.readAt;
    if (age > this.maxStalenessMs) {
      throw new Error(
        `the list of ended sign-ins is ${Math.round(age / 1000)} s old: ${describe(this.lastError)}`,
      );
    }
    return true;
  }

  /** Seconds since the last list was read; null before the first (metrics). */
  ageSeconds(now = Date.now()): number | null {
    return this.readAt === null ? null : (now - this.readAt) / 1000;
  }

  /** Reads now (answered once read or failed), then every interval until `stop()`. */
  async start(log: Log): Promise<void> {
    if (this.timer) return;
    this.startedAt = Date.now();
    this.timer = setInterval(() => void this.refresh(log), this.intervalMs);
    this.timer.unref();
    await this.refresh(log);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async refresh(log: Log): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      this.ids = new Set(await this.source.read());
      this.readAt = Date.now();
      this.failing = false;
      this.lastError = null;
    } catch (error) {
      this.lastError = error;
      const neverRead = this.readAt === null;
      // until the first list, retried soon: readiness waits on it (`npm start` starts both services)
      if (neverRead && this.timer)
        setTimeout(() => void this.refresh(log), FIRST_READ_RETRY_MS).unref();
      // logged once per outage (not while a portal that never answered may still be starting);
      // tokens are refused all the same
      const mayBeStarting = neverRead && Date.now() - this.startedAt < this.startGraceMs;
      if (!this.failing && !mayBeStarting) {
        log.warn(
          { err: error, maxStalenessMs: this.maxStalenessMs },
          'cannot read the ended sign-ins; tokens are refused once the last list is too old',
        );
        this.failing = true;
      }
    } finally {
      this.inFlight = false;
    }
  }
}

const describe = (error: unknown) =>
  error instanceof Error ? error.message : error === null ? 'not read yet' : String(error);

/** Past the access-token lifetime, for clocks that differ a little (as the portal's route). */
const SLACK_SECONDS = 60;

/**
 * The list this service trusts: the portal's table when the database is a PostgreSQL server that
 * holds it (shared with the portals), else the portal's route beside `JWKS_URL` (the embedded
 * default: separate PGlite folders, one portal).
 */
export function endedSignInsFor(
  config: { JWKS_URL: string; ACCESS_TOKEN_TTL: number; REVOCATION_MAX_STALENESS: number },
  database: { db: Power7Db; driver: 'pglite' | 'postgres' },
): EndedSignIns {
  const portal = portalSource(new URL('revoked-sessions', config.JWKS_URL).toString());
  const source =
    database.driver === 'postgres'
      ? databaseSource(database.db, config.ACCESS_TOKEN_TTL + SLACK_SECONDS, portal)
      : portal;
  return new EndedSignIns(source, config.REVOCATION_MAX_STALENESS * 1000);
}
