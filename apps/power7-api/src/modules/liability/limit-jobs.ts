import { LRUCache } from 'lru-cache';
import type { LimitJobView } from '@pa/contracts/power7';
import type { LimitAnswer, LimitProgress, OpenSession } from '@pa/power7-engine/session-store';
import type { SessionRow } from '../../db/schema';
import type { SessionQueries } from '../sessions/queries';

/** Limit runs remembered per process (their answers are a few hundred bytes each). */
const REMEMBERED_RUNS = 1_000;

/** One limit run of one session: under way, done with its answer, or failed with its error. */
export class LimitRunJob {
  answer: LimitAnswer | undefined;
  error: unknown;
  /** Settles (never rejects) once the run is done or failed. */
  readonly settled: Promise<void>;
  private live: LimitProgress | undefined;

  constructor(
    /** The session's tickets: the progress's total until the run has started. */
    private readonly tickets: number,
    open: () => Promise<OpenSession>,
    limit: number,
  ) {
    this.settled = (async () => {
      try {
        const job = (await open()).limitJob(limit);
        this.live = job.progress;
        this.answer = await job.answer;
      } catch (error) {
        this.error = error ?? new Error('The limit run failed.');
      }
    })();
  }

  get failed(): boolean {
    return this.error !== undefined;
  }

  /** Tickets decided in sales order so far, of all the session's tickets. */
  progress(): { done: number; total: number } {
    if (this.answer) return { done: this.answer.tickets, total: this.answer.tickets };
    const { done, total } = this.live ?? { done: 0, total: this.tickets };
    return { done, total };
  }
}

/**
 * The liability-limit runs of this process's sessions (issue #41 "any limit works"): one per
 * session and limit, a second ask joining the run under way; a done run's answer is remembered (a
 * finished session never changes), a failed one is tried again by the next POST. The heavy part of
 * a run — its refused tickets, which the refused-rows CSV reads — stays with the open session, as
 * before (`OpenSession.limitJob`).
 */
export class LimitJobs {
  private readonly runs = new LRUCache<string, LimitRunJob>({ max: REMEMBERED_RUNS });

  /** `waitMs`: how long an ask waits for its run before answering with its progress (LIMIT_WAIT_MS). */
  constructor(readonly waitMs: number) {}

  /**
   * The run of `limit` on the session: the one remembered, else a new one (`retry`: a failed one
   * too). `open` gives the finished session's engine tables.
   */
  private join(
    session: { id: string; tickets: number },
    limit: number,
    open: () => Promise<OpenSession>,
    retry: boolean,
  ): { job: LimitRunJob; started: boolean } {
    const key = `${session.id}/${Math.round(limit * 100)}`;
    const found = this.runs.get(key);
    if (found && !(retry && found.failed)) return { job: found, started: false };
    const job = new LimitRunJob(session.tickets, open, limit);
    this.runs.set(key, job);
    return { job, started: true };
  }

  /**
   * The run of `limit` on the caller's session (joined when under way or done; `retry`: a failed
   * one is run again), waited for up to `waitMs` when it starts here (LIMIT_WAIT_MS by default):
   * its answer once ended, its failure thrown, or (`running`) where to ask and how far it is.
   */
  async ask(
    queries: SessionQueries,
    row: SessionRow,
    limit: number,
    { retry, waitMs }: { retry: boolean; waitMs?: number },
  ): Promise<{ answer: LimitAnswer } | { running: LimitJobView }> {
    queries.ensureFinished(row);
    const session = { id: row.id, tickets: row.counts.accepted ?? 0 };
    const { job, started } = this.join(session, limit, () => queries.open(row), retry);
    // Not even a microtask's wait at 0: the session may already hold this limit's run (the cap or the
    // refused rows, asked at the same moment, start it there), and the job would take its answer
    // within a few microtasks — a started run answered 200 under LIMIT_WAIT_MS=0 (CI, session 23).
    const wait = started ? this.waitMs : (waitMs ?? this.waitMs);
    if (wait > 0) await this.waitFor(job, wait);
    if (job.answer) return { answer: job.answer };
    if (job.failed) throw job.error;
    const resultUrl = `/api/power7/sessions/${encodeURIComponent(row.id)}/limit/?limit=${limit}`;
    return { running: { resultUrl, progress: job.progress() } };
  }

  /** Until the run has settled or `waitMs` has passed, whichever comes first. */
  private async waitFor(job: LimitRunJob, waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      job.settled,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** The runs remembered, by state. */
  stats(): { running: number; done: number; failed: number } {
    const stats = { running: 0, done: 0, failed: 0 };
    for (const job of this.runs.values())
      stats[job.answer ? 'done' : job.failed ? 'failed' : 'running']++;
    return stats;
  }

  /** Forgets the runs of deleted sessions. */
  forget(sessionId: string): void {
    for (const key of this.runs.keys()) if (key.startsWith(`${sessionId}/`)) this.runs.delete(key);
  }
}
