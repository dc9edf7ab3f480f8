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
   * Queues the job of a session; a session already queued or running is not queued twice. Rejects
   * when the queue cannot take it (a shared queue's Redis down).
   */
  enqueue(sessionId: string): Promise<void>;
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

/** In-process queue: FIFO, at most `concurrency` jobs at a time, one per session, cancellable. */
export class EmbeddedJobQueue implements JobQueue {
  readonly local = true;
  private readonly waiting: string[] = [];
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();
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

  enqueue(sessionId: string): Promise<void> {
    if (!this.closed && !this.has(sessionId)) {
      this.waiting.push(sessionId);
      this.pump();
    }
    return Promise.resolve();
  }

  has(sessionId: string): boolean {
    return this.running.has(sessionId) || this.waiting.includes(sessionId);
  }

  async cancel(sessionId: string): Promise<boolean> {
    const at = this.waiting.indexOf(sessionId);
    if (at >= 0) {
      this.waiting.splice(at, 1);
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
      queued: this.waiting.length,
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
    this.waiting.length = 0;
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.done));
  }

  private pump(): void {
    const processor = this.processor;
    while (
      processor &&
      !this.closed &&
      this.running.size < this.concurrency &&
      this.waiting.length > 0
    ) {
      const sessionId = this.waiting.shift()!;
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
          // next job on a fresh tick, so a burst of finishing jobs does not recurse
          setImmediate(() => this.pump());
        }
      })();
      this.running.set(sessionId, { controller, done });
    }
  }
}
