import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type {
  JobContext,
  JobProcessor,
  JobProgress,
  JobQueue,
  JobStats,
  JobTurn,
} from './job-queue';

/** The queue's name in Redis; every Power 7 process of one installation uses the same. */
const QUEUE_NAME = 'power7-analyses';
/** Where a cancel is announced, so the worker process running the job stops it. */
const CANCEL_CHANNEL = 'power7:cancel';
/** BullMQ's lowest priority (the largest number it takes). */
const LOWEST_PRIORITY = 2 ** 21;
/** How often the shared queue's counts are read for `stats()`. */
const COUNTS_EVERY_MS = 2_000;

export interface BullMqQueueOptions {
  redisUrl: string;
  /** Whether this process runs jobs (ROLE worker or all) or only queues them (ROLE api). */
  consume: boolean;
  /** Jobs this process runs at the same time. */
  concurrency: number;
  /**
   * How long a job's lock lives without renewal: a worker that died is found out after this, and its
   * job run again by another (BullMQ's stalled-job check runs at the same interval).
   */
  lockMs: number;
  /** Times one job may be found stalled (its worker died) before it is given up. */
  maxStalls: number;
  log: { warn(details: object, message: string): void };
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * ioredis as BullMQ needs it: commands wait for a reconnect instead of failing after 20 tries. A lost
 * connection is retried by ioredis itself and shows in the readiness check; its 'error' events are
 * heard here so they do not end up as unhandled-error noise.
 */
function connect(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  return redis;
}

/**
 * The shared job queue (ADR 003): jobs live in Redis under BullMQ, with the session id as job id (so
 * a session is never queued twice), and any process started with a worker role runs them. BullMQ's
 * lock makes sure one job runs in one place at a time; a worker that dies leaves its lock to expire,
 * and the stalled-job check hands the job to another worker. A stop hands running jobs back to the
 * queue. Progress is written to the session row by the job runner, so every API process reads it.
 *
 * Companies take turns through priorities (BullMQ's groups are a Pro feature): a job's priority is
 * 1 + the jobs of its company queued or running before it (counted in the shared database, so every
 * API process gives the same), and equal priorities run in the order they came. A company's first
 * job thus goes ahead of another company's second, whatever their arrival (ADR 019).
 */
export class BullMqJobQueue implements JobQueue {
  readonly local = false;
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private processor: JobProcessor = () => Promise.resolve();
  private onError: (sessionId: string, error: unknown) => void = () => {};
  private readonly connections: Redis[] = [];
  private readonly running = new Map<string, Running>();
  private readonly listeners = new Set<(sessionId: string, progress: JobProgress) => void>();
  private readonly counters = { done: 0, failed: 0, cancelled: 0 };
  private shared = { queued: 0, running: 0 };
  private readonly countsTimer: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly options: BullMqQueueOptions) {
    const queueConnection = connect(options.redisUrl);
    this.connections.push(queueConnection);
    this.queue = new Queue(QUEUE_NAME, {
      connection: queueConnection,
      // A job that failed is over (the runner recorded why); it is never retried blindly.
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    });
    this.countsTimer = setInterval(() => void this.readCounts(), COUNTS_EVERY_MS);
    this.countsTimer.unref();
  }

  /** Runs jobs here when this process consumes (ROLE worker or all); otherwise only queues them. */
  process(processor: JobProcessor, onError?: (sessionId: string, error: unknown) => void): void {
    this.processor = processor;
    if (onError) this.onError = onError;
    const options = this.options;
    if (options.consume && !this.worker) {
      const workerConnection = connect(options.redisUrl);
      const subscriber = connect(options.redisUrl);
      this.connections.push(workerConnection, subscriber);
      this.worker = new Worker<{ sessionId: string }>(
        QUEUE_NAME,
        (job, token) => this.run(job, token),
        {
          connection: workerConnection,
          concurrency: options.concurrency,
          lockDuration: options.lockMs,
          stalledInterval: options.lockMs,
          maxStalledCount: options.maxStalls,
        },
      );
      this.worker.on('error', (error) => options.log.warn({ err: error }, 'Power 7 queue worker'));
      void subscriber.subscribe(CANCEL_CHANNEL).catch(() => {});
      subscriber.on('message', (_channel: string, sessionId: string) => {
        this.running.get(sessionId)?.controller.abort();
      });
    }
  }

  async enqueue(sessionId: string, turn?: JobTurn): Promise<void> {
    if (this.closing) return;
    const priority = Math.min(LOWEST_PRIORITY, 1 + (turn?.ahead ?? 0));
    // the same job id again is a no-op while that job waits or runs
    await this.queue.add('analyse', { sessionId }, { jobId: sessionId, priority });
  }

  has(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  async cancel(sessionId: string): Promise<boolean> {
    const here = this.running.get(sessionId);
    if (here) {
      here.controller.abort();
      await here.done;
      return true;
    }
    const job = await this.queue.getJob(sessionId);
    if (!job) return false;
    try {
      // a waiting job is simply taken out
      await job.remove();
      this.counters.cancelled++;
      return true;
    } catch {
      // it is running (locked) in another process: that worker stops it, and the job goes
      await this.connections[0]!.publish(CANCEL_CHANNEL, sessionId);
      for (let waited = 0; waited < 15_000; waited += 100) {
        if (!(await this.queue.getJob(sessionId))) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return true;
    }
  }

  stats(): JobStats {
    return {
      queued: this.shared.queued,
      running: this.shared.running,
      ...this.counters,
      concurrency: this.worker ? this.options.concurrency : 0,
    };
  }

  onProgress(listener: (sessionId: string, progress: JobProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Redis answers within 2 s (commands wait for a reconnect, so an outage must not hang the check). */
  async check(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis did not answer within 2 s')), 2_000);
    });
    try {
      return (await Promise.race([this.connections[0]!.ping(), late])) === 'PONG';
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.countsTimer);
    for (const job of this.running.values()) job.controller.abort();
    // waits for the running processors, which hand their jobs back (see run)
    await this.worker?.close();
    await this.queue.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  /** Runs one job here; a stop hands it back to the queue for another worker (or a restart). */
  private async run(job: Job<{ sessionId: string }>, token: string | undefined): Promise<void> {
    const sessionId = job.data.sessionId;
    const controller = new AbortController();
    const context: JobContext = {
      signal: controller.signal,
      report: (progress) => {
        for (const listener of this.listeners) listener(sessionId, progress);
      },
    };
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.running.set(sessionId, { controller, done });
    try {
      await this.processor(sessionId, context);
      this.counters.done++;
    } catch (error) {
      this.onError(sessionId, error);
      if (this.closing && controller.signal.aborted) {
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      if (controller.signal.aborted) this.counters.cancelled++;
      else this.counters.failed++;
      throw error;
    } finally {
      this.running.delete(sessionId);
      finish();
    }
  }

  private async readCounts(): Promise<void> {
    try {
      const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
      this.shared = {
        queued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
        running: counts.active ?? 0,
      };
    } catch {
      // Redis away: the last counts stand; readiness says so
    }
  }
}
