/**
 * The seam between routes and whatever runs analyses. Routes and the session service only see this
 * interface; `EmbeddedJobQueue` runs jobs in this process, and a Redis-backed queue (BullMQ) can take
 * its place without touching them (docs/decisions/003-power7-jobs-and-storage.md).
 */
export interface JobProgress {
  phase: string;
  /** 0..1 */
  fraction: number;
  counts?: Record<string, number | undefined>;
}

export interface JobContext {
  signal: AbortSignal;
  report(progress: JobProgress): void;
}

/** Runs one session's job; resolves when done, rejects on failure (cancellation rejects too). */
export type JobProcessor = (sessionId: string, context: JobContext) => Promise<void>;

/**
 * Where a job goes in the queue: `group` its company (companies are taken in turn, so one company's
 * many jobs do not hold back another's), `ahead` how many of the company's jobs were queued before it
 * (the shared queue's priority; the embedded queue counts them itself). ADR 019.
 */
export interface JobTurn {
  group: string;
  ahead: number;
}

export interface JobStats {
  queued: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
  concurrency: number;
}

export interface JobQueue {
  /**
   * Starts running the queued jobs with `processor` (the job runner hands its own); `onError` hears
   * each job that failed or was cancelled. Until then jobs wait. A process that only queues jobs (a
   * shared queue with ROLE api) runs none.
   */
  process(processor: JobProcessor, onError?: (sessionId: string, error: unknown) => void): void;
  /**
   * Whether jobs enqueued here run in this process (the embedded queue), so this process can answer
   * from what it keeps in memory; with a shared queue (BullMQ) any worker process may run them.
   */
  readonly local: boolean;
  /**
   * Queues the job of a session, in its company's turn (without one: a group of its own for all such
   * jobs); a session already queued or running is not queued twice. Rejects when the queue cannot
   * take it (a shared queue's Redis down).
   */
  enqueue(sessionId: string, turn?: JobTurn): Promise<void>;
  /** Cancels a queued or running job; resolves once it has stopped. False when there was none. */
  cancel(sessionId: string): Promise<boolean>;
  /** Whether the session's job is queued or running. */
  has(sessionId: string): boolean;
  stats(): JobStats;
  /** Progress of every job; returns the unsubscribe function. */
  onProgress(listener: (sessionId: string, progress: JobProgress) => void): () => void;
  /** Stops taking jobs and cancels the running ones (they are re-run after the next start). */
  close(): Promise<void>;
  /** Readiness of what the queue depends on (Redis for a shared queue); absent: nothing. */
  check?(): Promise<boolean>;
}

/**
 * In-process queue: at most `concurrency` jobs at a time, one per session, cancellable. Companies are
 * taken in turn: the next job is the oldest of the company with the fewest jobs running, and among
 * those the one served longest ago (a company that never was, first); each company's own jobs run in
 * the order they came (ADR 019).
 */
export class EmbeddedJobQueue implements JobQueue {
  readonly local = true;
  /** Each company's waiting jobs, oldest first, with the order they came in. */
  private readonly waiting = new Map<string, { sessionId: string; serial: number }[]>();
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void>; group: string }
  >();
  /** When each company with jobs waiting or running was last served (a serial of this queue's picks). */
  private readonly lastServed = new Map<string, number>();
  private serial = 0;
  private picks = 0;
  private readonly listeners = new Set<(sessionId: string, progress: JobProgress) => void>();
  private counters = { done: 0, failed: 0, cancelled: 0 };
  private closed = false;
  private processor: JobProcessor | null = null;
  private onError: (sessionId: string, error: unknown) => void = () => {};

  constructor(private readonly concurrency: number) {}

  process(processor: JobProcessor, onError?: (sessionId: string, error: unknown) => void): void {
    this.processor = processor;
    if (onError) this.onError = onError;
    this.pump();
  }

  enqueue(sessionId: string, turn?: JobTurn): Promise<void> {
    if (!this.closed && !this.has(sessionId)) {
      const group = turn?.group ?? '';
      const jobs = this.waiting.get(group) ?? [];
      jobs.push({ sessionId, serial: this.serial++ });
      this.waiting.set(group, jobs);
      this.pump();
    }
    return Promise.resolve();
  }

  has(sessionId: string): boolean {
    return this.running.has(sessionId) || this.waitingGroup(sessionId) !== undefined;
  }

  private waitingGroup(sessionId: string): string | undefined {
    for (const [group, jobs] of this.waiting) {
      if (jobs.some((job) => job.sessionId === sessionId)) return group;
    }
    return undefined;
  }

  async cancel(sessionId: string): Promise<boolean> {
    const group = this.waitingGroup(sessionId);
    if (group !== undefined) {
      const jobs = this.waiting.get(group)!.filter((job) => job.sessionId !== sessionId);
      if (jobs.length) this.waiting.set(group, jobs);
      else {
        this.waiting.delete(group);
        this.forgetIfIdle(group);
      }
      this.counters.cancelled++;
      return true;
    }
    const job = this.running.get(sessionId);
    if (!job) return false;
    job.controller.abort();
    await job.done;
    return true;
  }

  stats(): JobStats {
    return {
      queued: [...this.waiting.values()].reduce((sum, jobs) => sum + jobs.length, 0),
      running: this.running.size,
      ...this.counters,
      concurrency: this.concurrency,
    };
  }

  onProgress(listener: (sessionId: string, progress: JobProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.done));
  }

  /** The company whose turn it is: fewest jobs running, then served longest ago, then oldest job. */
  private nextGroup(): string | undefined {
    const runningOf = new Map<string, number>();
    for (const job of this.running.values())
      runningOf.set(job.group, (runningOf.get(job.group) ?? 0) + 1);
    let best: string | undefined;
    let bestKey: number[] = [];
    for (const [group, jobs] of this.waiting) {
      const key = [runningOf.get(group) ?? 0, this.lastServed.get(group) ?? -1, jobs[0]!.serial];
      if (best === undefined || comesFirst(key, bestKey)) {
        best = group;
        bestKey = key;
      }
    }
    return best;
  }

  /** A company's turn is remembered while it has jobs waiting or running. */
  private forgetIfIdle(group: string): void {
    if (this.waiting.has(group)) return;
    for (const job of this.running.values()) if (job.group === group) return;
    this.lastServed.delete(group);
  }

  private pump(): void {
    const processor = this.processor;
    while (processor && !this.closed && this.running.size < this.concurrency) {
      const group = this.nextGroup();
      if (group === undefined) break;
      const jobs = this.waiting.get(group)!;
      const { sessionId } = jobs.shift()!;
      if (jobs.length === 0) this.waiting.delete(group);
      this.lastServed.set(group, this.picks++);
      const controller = new AbortController();
      const context: JobContext = {
        signal: controller.signal,
        report: (progress) => {
          for (const listener of this.listeners) listener(sessionId, progress);
        },
      };
      const done = (async () => {
        try {
          await processor(sessionId, context);
          this.counters.done++;
        } catch (error) {
          if (controller.signal.aborted) this.counters.cancelled++;
          else this.counters.failed++;
          this.onError(sessionId, error);
        } finally {
          this.running.delete(sessionId);
          this.forgetIfIdle(group);
          // next job on a fresh tick, so a burst of finishing jobs does not recurse
          setImmediate(() => this.pump());
        }
      })();
      this.running.set(sessionId, { controller, done, group });
    }
  }
}

/** Whether sort key `a` comes before `b` (compared element by element). */
function comesFirst(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
