import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EngineError,
  NoValidRowsError,
  readSessionStatus,
  readUpload,
  removeLeftovers,
  runAnalysis,
  SESSION_FILES,
  type Budget,
  type IngestSummary,
  type ReadUpload,
  type XlsxLimits,
} from '@pa/power7-engine/session-store';
import type { SessionRow } from '../../db/schema';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError } from '@pa/server-kit/errors';
import type { JobContext, JobQueue } from '../jobs/job-queue';
import { UPLOAD_FILE, type ArrivingUpload, type SessionMemory } from './memory';
import { readBytesBound, resultBytesBound } from './output-bound';
import { folderBytes, formatMb, type QuotaUse } from './quota';
import type { SessionRepository } from './repository';
import type { Owner, SessionCounts, SessionParams, SessionTimings, StoredCounts } from './state';

/** Share of the overall progress taken by reading the file (the analysis takes the rest). */
const READ_SHARE = 0.4;

/** Runs of one job cut off by a crash before it is given up. */
export const MAX_ATTEMPTS = 3;

export interface JobRunnerOptions {
  /** Worker threads of one analysis (0: one per core). */
  workers: number;
  /** Heap and time limits of reading one XLSX upload. */
  xlsx: XlsxLimits;
  ttlHours: number;
  /** Where a failed job is reported (a cancelled one is not a failure). */
  log: { warn(details: object, message: string): void };
  /**
   * The storage quota, checked again before an analysis writes its results: what each user's
   * sessions may take, and what the owner's other sessions take (ADR 019).
   */
  quota?: { limitBytes: number; usage(owner: Owner, except: string): Promise<QuotaUse> };
}

/**
 * A job refused before it writes its results: the owner's sessions would pass the storage quota
 * (recorded as the session's error with this code; nothing of the results is written).
 */
export class StorageQuotaExceededError extends Error {
  readonly code = 'STORAGE_QUOTA_EXCEEDED';
}

/** How a job of this process ended, as metrics count it. */
export type JobOutcome = 'done' | 'failed' | 'cancelled';

/**
 * Runs the sessions' jobs (read the file, analyse it) on the queue it is handed (this process's own,
 * or the one shared through Redis: plugins/app/queue.ts chooses), and keeps the session row and
 * the in-memory state up to date while they run.
 */
export class SessionJobRunner {
  readonly queue: JobQueue;
  private readonly lastWrite = new Map<string, { phase: string; at: number }>();
  /** Progress writes per session, chained so a late one never lands after the final state. */
  private readonly writes = new Map<string, Promise<void>>();
  /** Told how each job run here ended and how long it took (metrics). */
  private readonly endListeners = new Set<(outcome: JobOutcome, seconds: number) => void>();

  constructor(
    private readonly repo: SessionRepository,
    private readonly memory: SessionMemory,
    queue: JobQueue,
    private readonly options: JobRunnerOptions,
  ) {
    const processor = async (id: string, context: JobContext) => {
      const started = performance.now();
      let outcome: JobOutcome = 'failed';
      try {
        await this.process(id, context);
        outcome = 'done';
      } catch (error) {
        if (context.signal.aborted || (error as { code?: string }).code === 'CANCELLED')
          outcome = 'cancelled';
        throw error;
      } finally {
        const seconds = (performance.now() - started) / 1000;
        for (const listener of this.endListeners) listener(outcome, seconds);
      }
    };
    const onError = (id: string, error: unknown) => {
      const cancelled = (error as { code?: string }).code === 'CANCELLED';
      if (!cancelled) options.log.warn({ err: error, session: id }, 'Power 7 job failed');
      void this.failed(id, error, cancelled);
    };
    this.queue = queue;
    this.queue.onProgress((id, progress) => {
      this.memory.live.set(id, progress);
      const last = this.lastWrite.get(id);
      const now = Date.now();
      // status polls read `live`; the database only needs to follow roughly (other instances, restarts)
      if (!last || now - last.at > 1_000) {
        this.lastWrite.set(id, { phase: progress.phase, at: now });
        const previous = this.writes.get(id) ?? Promise.resolve();
        this.writes.set(
          id,
          previous
            .then(() => this.update(id, { phase: progress.phase, progress: progress.fraction }))
            .catch(() => {}),
        );
      }
    });
    // jobs start once progress is heard
    queue.process(processor, onError);
  }

  /** Calls `listener` as each job run by this process ends. */
  onJobEnd(listener: (outcome: JobOutcome, seconds: number) => void): void {
    this.endListeners.add(listener);
  }

  /** Writes a change of a session and mirrors it in the in-memory row of an active session. */
  private async update(id: string, values: Partial<SessionRow>): Promise<void> {
    await this.repo.update(id, values);
    const row = this.memory.activeRows.get(id);
    if (row) this.memory.activeRows.set(id, { ...row, ...values, updatedAt: new Date() });
  }

  /**
   * Records an uploaded session (with the upload's timings) and queues its job, which takes over the
   * file's read as it arrived when given (with this process's own queue only).
   */
  async start(
    id: string,
    owner: Owner,
    params: SessionParams,
    file: {
      originalName: string | null;
      bytes: number;
      timings?: SessionTimings;
      arrived?: ArrivingUpload | undefined;
      /** A rerun: the upload whose stored tickets it analyses again. */
      sourceSessionId?: string;
      /** What the session's folder may take once done, counted against the quota meanwhile. */
      reservedBytes?: number;
    },
  ): Promise<SessionRow> {
    if (file.arrived) {
      // held for the job from now on: dropped with the session if it is not recorded or queued
      if (this.queue.local) this.memory.arrived.set(id, file.arrived);
      else file.arrived.read.abort();
    }
    const now = new Date();
    const row = await this.repo
      .insert({
        id,
        userId: owner.userId,
        companyId: owner.companyId,
        status: 'queued',
        phase: 'queued',
        progress: 0,
        params,
        originalName: file.originalName,
        fileBytes: file.bytes,
        reservedBytes: file.reservedBytes ?? 0,
        sourceSessionId: file.sourceSessionId ?? null,
        counts: { timings: { ...file.timings } },
        error: null,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + this.options.ttlHours * 3_600_000),
      })
      .catch((error: unknown) => {
        this.memory.dropArrived(id);
        throw error;
      });
    // a shared queue's job may run in another process: this one reads the row, not its memory
    if (this.queue.local) this.memory.activeRows.set(id, row);
    try {
      await this.queue.enqueue(id, await this.turnOf(row));
    } catch (error) {
      this.memory.dropArrived(id);
      this.options.log.warn({ err: error, session: id }, 'Power 7 job could not be queued');
      await this.failed(id, new Error('not queued'), false);
      throw new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The analysis could not be queued just now; please upload the file again in a moment.',
      );
    }
    return row;
  }

  /**
   * Where a session's job goes in the queue: its company's turn (the embedded queue takes companies
   * in turn) and, for the shared queue, how many of the company's jobs were queued before it (its
   * priority there: ADR 019).
   */
  private async turnOf(row: SessionRow): Promise<{ group: string; ahead: number }> {
    const ahead = this.queue.local
      ? 0
      : await this.repo.companyJobsAhead(row.companyId, row.id, row.createdAt);
    return { group: row.companyId, ahead };
  }

  /**
   * Checks, before the analysis writes its results, that the owner's sessions stay inside the
   * storage quota with them: this folder as it is (the read's files still being written counted by
   * their exact size; a report of rejected rows has no bound, so it is waited for), the results'
   * upper bound with the tickets now known, and the owner's other sessions with their reservations.
   * The reservation is narrowed to that total, which frees room for the owner's next jobs. Throws
   * `StorageQuotaExceededError` (the job fails, nothing of its results written).
   */
  private async checkRoom(
    row: SessionRow,
    dir: string,
    ingest: IngestSummary,
    ingested: ReadUpload | undefined,
  ): Promise<void> {
    const quota = this.options.quota;
    if (!quota) return;
    if (ingested && ingest.rejected > 0) await ingested.saved;
    const unwritten = ingested && ingest.rejected === 0 ? readBytesBound(0, ingest.accepted) : 0;
    const countsStored = await stat(join(dir, SESSION_FILES.counts)).then(
      () => true,
      () => false,
    );
    const results = resultBytesBound({
      pool: ingest.pool,
      tickets: ingest.accepted,
      params: row.params,
      countsStored,
    });
    const own = (await folderBytes(dir)) + unwritten + results;
    const others = await quota.usage({ userId: row.userId, companyId: row.companyId }, row.id);
    if (others.bytes + own > quota.limitBytes) {
      throw new StorageQuotaExceededError(
        `The storage quota of ${formatMb(quota.limitBytes)} MB would be passed: your other sessions ` +
          `take ${formatMb(others.bytes)} MB and this analysis may need up to ${formatMb(own)} MB ` +
          `with its results. Delete sessions, or run it again with a smaller pool.`,
      );
    }
    await this.update(row.id, { reservedBytes: own });
  }

  /** Stops a session's job (if any) and drops what this runner keeps of it. */
  async cancel(id: string): Promise<void> {
    this.memory.dropArrived(id);
    await this.queue.cancel(id);
    this.lastWrite.delete(id);
  }

  private async flush(id: string): Promise<void> {
    await this.writes.get(id);
    this.writes.delete(id);
  }

  /** The job of one session: read the file (unless a previous run already did), then analyse. */
  private async process(id: string, { signal, report }: JobContext): Promise<void> {
    const arrived = this.memory.takeArrived(id);
    const row = await this.repo.get(id);
    if (!row || row.status === 'done' || row.status === 'failed') return;
    // a job that took its process down again and again (e.g. out of memory) is not retried forever
    if (row.attempts >= MAX_ATTEMPTS) return this.giveUp(row);
    const params = row.params;
    const dir = this.memory.dirOf(id);
    // what a run cut off by a crash left (a half-written `qualifying.bin.tmp-…` can be 30+ MB);
    // only one run of a job is under way at a time, so nothing here is still being written
    await removeLeftovers(dir);
    const started = Date.now();
    const { timings: storedTimings, ...storedCounts } = row.counts;
    const timings: SessionTimings = {
      ...storedTimings,
      queuedMs: Math.max(0, started - row.createdAt.getTime()),
    };
    const counts: SessionCounts = { ...storedCounts };
    const existing = await readSessionStatus(dir);
    let ingest = existing.ingest;
    // read already (a rerun over the same pool): one write of the row before the analysis
    if (ingest) Object.assign(counts, readCounts(ingest));
    await this.update(id, {
      status: 'running',
      phase: ingest ? 'building' : 'reading',
      progress: ingest ? READ_SHARE : 0,
      startedAt: new Date(started),
      error: null,
      attempts: row.attempts + 1,
      ...(ingest ? { counts } : {}),
    });
    // the session files are written while the analysis runs: only the read is waited for
    let ingested: ReadUpload | undefined;
    if (!ingest) {
      const reading = Date.now();
      // the upload's own read, when it holds this session's file for its pool
      if (arrived) signal.addEventListener('abort', () => arrived.read.abort(), { once: true });
      const read = arrived ? await arrived.result : null;
      const ready = read?.pool === params.pool_size ? read : null;
      ingested = await readUpload({
        sourcePath: join(dir, UPLOAD_FILE),
        sessionDir: dir,
        pool: params.pool_size,
        moveSource: true,
        xlsx: this.options.xlsx,
        ...(this.options.workers > 0 ? { workers: this.options.workers } : {}),
        ...(ready ? { arrived: ready } : {}),
        ...(row.originalName ? { originalName: row.originalName } : {}),
        signal,
        onProgress: (p) =>
          report({
            phase: 'reading',
            fraction: Math.min(1, p.fraction) * READ_SHARE,
            counts: { rowsRead: p.counts?.rowsRead },
          }),
      });
      ingest = ingested.summary;
      timings.readMs = Date.now() - reading;
    }
    let analysis;
    try {
      this.memory.samples.set(id, ingest.rejectedSample);
      await this.checkRoom(row, dir, ingest, ingested);
      if (ingested) {
        Object.assign(counts, readCounts(ingest));
        await this.flush(id);
        await this.update(id, { phase: 'building', progress: READ_SHARE, counts });
      }
      analysis = await runAnalysis({
        sessionDir: dir,
        payouts: params.payouts,
        budget: budgetOf(params),
        pool: params.pool_size,
        ...(this.options.workers > 0 ? { workers: this.options.workers } : {}),
        ...(ingested ? { ingested } : {}),
        signal,
        onProgress: (p) =>
          report({
            phase: p.phase,
            fraction: READ_SHARE + (1 - READ_SHARE) * Math.min(1, p.fraction),
            counts: { ...counts, ...p.counts },
          }),
      });
    } finally {
      // a failure before the analysis took the upload over leaves no session file being written
      await ingested?.saved.catch(() => {});
    }
    // an XLSX upload (its rows were stored as CSV); a CSV one became rows.csv
    await rm(join(dir, UPLOAD_FILE), { force: true });
    Object.assign(timings, {
      buildMs: Math.round(analysis.timings.buildMs),
      scanMs: Math.round(analysis.timings.scanMs),
      analysisMs: Math.round(analysis.timings.totalMs),
      saveMs: analysis.timings.saveMs,
      workers: analysis.timings.workers,
      totalMs: Date.now() - started,
    });
    Object.assign(counts, {
      draws: analysis.draws,
      drawsEvaluated: analysis.draws,
      drawsQualified: analysis.qualified,
    });
    await this.flush(id);
    this.memory.live.delete(id);
    this.lastWrite.delete(id);
    const finished = {
      status: 'done',
      phase: 'done',
      progress: 1,
      counts: { ...counts, timings },
      finishedAt: new Date(),
    } satisfies Partial<SessionRow>;
    await this.repo.update(id, finished);
    const active = this.memory.activeRows.get(id);
    this.memory.activeRows.delete(id);
    if (active) this.memory.finishedRows.set(id, { ...active, ...finished, updatedAt: new Date() });
  }

  /** Records a failed job (a cancelled one is left as it is: deleted, or re-run after a restart). */
  private async failed(id: string, error: unknown, cancelled: boolean): Promise<void> {
    await this.flush(id);
    this.memory.live.delete(id);
    this.lastWrite.delete(id);
    this.memory.activeRows.delete(id);
    if (cancelled) return;
    const known = error instanceof EngineError || error instanceof StorageQuotaExceededError;
    await rm(join(this.memory.dirOf(id), UPLOAD_FILE), { force: true }).catch(() => {});
    // a file without one valid row keeps its counts, and its rejected rows stay reportable
    let counts: StoredCounts | undefined;
    if (error instanceof NoValidRowsError) {
      const row = await this.repo.get(id).catch(() => null);
      const read = await readSessionStatus(this.memory.dirOf(id)).catch(() => null);
      const reasons = read?.noValidRows?.rejectedReasons;
      counts = {
        ...row?.counts,
        rowsRead: error.rowsRead,
        accepted: 0,
        rejected: error.rejected,
        ...(reasons ? { rejectedReasons: reasons } : {}),
      };
      this.memory.samples.set(id, error.rejectedSample);
    }
    await this.repo
      .update(id, {
        ...(counts ? { counts } : {}),
        status: 'failed',
        phase: 'failed',
        finishedAt: new Date(),
        error: {
          code: known ? error.code : 'INTERNAL_ERROR',
          message: known
            ? error.message
            : 'The analysis failed on our side. Please upload the file again.',
        },
      })
      .catch(() => {});
  }

  private async giveUp(row: SessionRow): Promise<void> {
    await this.repo.update(row.id, {
      status: 'failed',
      phase: 'failed',
      finishedAt: new Date(),
      error: {
        code: 'INTERRUPTED',
        message: `The analysis was interrupted ${row.attempts} times; upload the file again or a smaller one.`,
      },
    });
  }

  /**
   * Sessions cut off by a crash or a stop are queued again, oldest first (each run first removes what
   * the cut left in its folder). With the shared queue, a job another process is running keeps its
   * job id, so queueing it again changes nothing; BullMQ hands over the job of a worker that died.
   */
  async recover(): Promise<number> {
    const rows = await this.repo.unfinished();
    let queued = 0;
    for (const row of rows) {
      if (row.attempts >= MAX_ATTEMPTS) {
        await this.giveUp(row);
        continue;
      }
      if (this.queue.local) await this.repo.update(row.id, { status: 'queued', phase: 'queued' });
      await this.queue.enqueue(row.id, await this.turnOf(row));
      queued++;
    }
    return queued;
  }
}

/** What the read of the file counted, as the session row keeps it. */
function readCounts(ingest: IngestSummary): SessionCounts {
  return {
    rowsRead: ingest.rowsRead,
    accepted: ingest.accepted,
    rejected: ingest.rejected,
    ...(ingest.rejectedReasons ? { rejectedReasons: ingest.rejectedReasons } : {}),
  };
}

export function budgetOf(params: SessionParams): Budget {
  return params.budget_type === 'fixed'
    ? { type: 'fixed', budget: params.budget ?? 0 }
    : { type: 'range', min: params.budget_min ?? 0, max: params.budget_max ?? 0 };
}
