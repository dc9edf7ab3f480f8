import type { Power7Session, SessionStatus } from '@pa/contracts/power7';

/**
 * The one shape of a Power 7 session's state: the API's session (contracts/power7.ts) and what the
 * `power7_sessions` row stores of it (db/schema.ts types its jsonb columns with the same contract
 * types; the database layer imports no module).
 */
export type { SessionParams } from '@pa/contracts/power7';
export type SessionStatusValue = SessionStatus;
export type SessionView = Power7Session;
/** Counts known so far: rows read / accepted / rejected, draws evaluated / qualified. */
export type SessionCounts = Power7Session['counts'];
/**
 * Where the time of a session went (milliseconds): `uploadMs` receiving the body until the file is on
 * disk, `readMs` reading and checking the file, `queuedMs` from the 202 answer until the job started,
 * `buildMs` + `scanMs` (= `analysisMs` with the worker start) the engine's analysis, `saveMs` storing
 * its results, `totalMs` the job from its start until done.
 */
export type SessionTimings = Power7Session['timings'];

/** A `power7_sessions` row, and its `counts` column: the counts, and the timings beside them. */
export type { SessionRow, StoredCounts } from '../../db/schema';

export interface Owner {
  userId: string;
  companyId: string;
}
