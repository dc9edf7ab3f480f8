import { access, constants, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EngineError,
  ingestFile,
  NoValidRowsError,
  openSession,
  readSessionStatus,
  rejectedRowsCsvPath,
  removeLeftovers,
  runAnalysis,
  type Budget,
  type OpenSession,
  type RejectedRow,
} from '@pa/power7-engine/session-store';
import { AppError, notFound } from '@pa/server-kit/errors';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { SessionRow } from '../db/schema';
import type { JobContext, JobProgress, JobQueue } from '../jobs/job-queue';
import type { ResultCache } from './result-cache';
import type { Owner, SessionParams, SessionRepository, SessionStatusValue } from './repository';

/** The file an upload is streamed to inside its session folder, until ingest has read it. */
export const UPLOAD_FILE = 'upload.dat';

/** Share of the overall progress taken by reading the file (the analysis takes the rest). */
const READ_SHARE = 0.4;

/** Runs of one job cut off by a crash before it is given up. */
export const MAX_ATTEMPTS = 3;

export interface SessionCounts {
  rowsRead?: number;
  accepted?: number;
  rejected?: number;
  draws?: number;
  drawsEvaluated?: number;
  drawsQualified?: number;
}

/** Where the time of a session went (milliseconds). */
export interface SessionTimings {
  /** Receiving the upload's body until the file is on disk. */
  uploadMs?: number;
  /** Reading and checking the file (tickets, rejected rows) into the session folder. */
  readMs?: number;
  /** From the 202 answer until the job started. */
  queuedMs?: number;
  buildMs?: number;
  scanMs?: number;
  /** The engine's analysis (build + scan + worker start). */
  analysisMs?: number;
  /** Storing the results (qualifying draws, summary) after the scan. */
  saveMs?: number;
  /** The job, from its start until the session is done. */
  totalMs?: number;
  workers?: number;
}

interface StoredCounts extends SessionCounts {
  timings?: SessionTimings;
}

/** What the API answers about a session. */
export interface SessionView {
  _id: string;
  status: SessionStatusValue;
  phase: string;
  progress: number;
  params: SessionParams;
  originalName: string | null;
  fileBytes: number;
  counts: SessionCounts;
  timings: SessionTimings;
  error: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string;
}

/** Maps an engine failure to the answer a client gets. */
export function engineErrorToApp(error: unknown): unknown {
  if (!(error instanceof EngineError)) return error;
  switch (error.code) {
    case 'INVALID_COMBO':
      return new AppError(ErrorCode.VALIDATION_ERROR, error.message, [
        { field: 'combo', message: error.message, code: ErrorCode.VALIDATION_ERROR },
      ]);
    case 'SESSION_NOT_FOUND':
      return notFound('The session');
    case 'SESSION_NOT_READY':
      return new AppError(ErrorCode.CONFLICT, 'The analysis of this session has not finished yet.');
    default:
      return new AppError(
        ErrorCode.VALIDATION_ERROR,
        error.message,
        error.field
          ? [{ field: error.field, message: error.message, code: ErrorCode.VALIDATION_ERROR }]
          : undefined,
      );
  }
}

export class Power7Sessions {
  /** Latest progress of running jobs, so status polls never wait for the database. */
  private readonly live = new Map<string, JobProgress>();
  private readonly lastWrite = new Map<string, { phase: string; at: number }>();
  /**
   * Rows of finished sessions: they no longer change until deleted, so filter / winners / download
   * calls skip the database round trip.
   */
  private readonly finishedRows = new Map<string, SessionRow>();
  /** Progress writes per session, chained so a late one never lands after the final state. */
  private readonly writes = new Map<string, Promise<void>>();
  /**
   * Rows of the queued and running sessions of this process, kept up to date by the job itself, so
   * the status polls of a running job cost no database read (they would compete with the job).
   */
  private readonly activeRows = new Map<string, SessionRow>();
  /** First rejected rows of sessions whose file has been read (`ingest.json` never changes). */
  private readonly samples = new Map<string, RejectedRow[]>();
  queue!: JobQueue;

  constructor(
    private readonly repo: SessionRepository,
    private readonly cache: ResultCache,
    private readonly options: { root: string; workers: number; ttlHours: number },
  ) {}

  dirOf(id: string): string {
    return join(this.options.root, id);
  }

  /** Attaches the queue (built with `this.process` as its processor) and mirrors its progress. */
  attach(queue: JobQueue): void {
    this.queue = queue;
    queue.onProgress((id, progress) => {
      this.live.set(id, progress);
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
  }

  /** Writes a change of a session and mirrors it in the in-memory row of an active session. */
  private async update(id: string, values: Partial<SessionRow>): Promise<void> {
    await this.repo.update(id, values);
    const row = this.activeRows.get(id);
    if (row) this.activeRows.set(id, { ...row, ...values, updatedAt: new Date() });
  }

  /** Records an uploaded session (with the upload's timings) and queues its job. */
  async create(
    id: string,
    owner: Owner,
    params: SessionParams,
    file: { originalName: string | null; bytes: number; timings?: SessionTimings },
  ): Promise<SessionRow> {
    const now = new Date();
    const counts: StoredCounts = { timings: { ...file.timings } };
    const row = await this.repo.insert({
      id,
      userId: owner.userId,
      companyId: owner.companyId,
      status: 'queued',
      phase: 'queued',
      progress: 0,
      params,
      originalName: file.originalName,
      fileBytes: file.bytes,
      counts,
      error: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + this.options.ttlHours * 3_600_000),
    });
    this.activeRows.set(id, row);
    this.queue.enqueue(id);
    return row;
  }

  private async flush(id: string): Promise<void> {
    await this.writes.get(id);
    this.writes.delete(id);
  }

  /** The job of one session: read the file (unless a previous run already did), then analyse. */
  process = async (id: string, { signal, report }: JobContext): Promise<void> => {
    const row = await this.repo.get(id);
    if (!row) return;
    const params = row.params as SessionParams;
    const dir = this.dirOf(id);
    const started = Date.now();
    const stored = (row.counts ?? {}) as StoredCounts;
    const timings: SessionTimings = {
      ...stored.timings,
      queuedMs: Math.max(0, started - row.createdAt.getTime()),
    };
    const counts: SessionCounts = { ...stored };
    delete (counts as StoredCounts).timings;
    const existing = await readSessionStatus(dir);
    let ingest = existing.ingest;
    await this.update(id, {
      status: 'running',
      phase: ingest ? 'building' : 'reading',
      progress: ingest ? READ_SHARE : 0,
      startedAt: new Date(started),
      error: null,
      attempts: row.attempts + 1,
    });
    if (!ingest) {
      const reading = Date.now();
      ingest = await ingestFile({
        sourcePath: join(dir, UPLOAD_FILE),
        sessionDir: dir,
        pool: params.pool_size,
        moveSource: true,
        ...(row.originalName ? { originalName: row.originalName } : {}),
        signal,
        onProgress: (p) =>
          report({
            phase: 'reading',
            fraction: Math.min(1, p.fraction) * READ_SHARE,
            counts: { rowsRead: p.counts?.rowsRead },
          }),
      });
      timings.readMs = Date.now() - reading;
    }
    await rm(join(dir, UPLOAD_FILE), { force: true });
    Object.assign(counts, {
      rowsRead: ingest.rowsRead,
      accepted: ingest.accepted,
      rejected: ingest.rejected,
    });
    this.samples.set(id, ingest.rejectedSample);
    await this.flush(id);
    await this.update(id, { phase: 'building', progress: READ_SHARE, counts });
    const analysis = await runAnalysis({
      sessionDir: dir,
      payouts: params.payouts,
      budget: budgetOf(params),
      pool: params.pool_size,
      // pages of draws come from filter; the summary's top list would be one more pass over them
      topDraws: 0,
      ...(this.options.workers > 0 ? { workers: this.options.workers } : {}),
      signal,
      onProgress: (p) =>
        report({
          phase: p.phase,
          fraction: READ_SHARE + (1 - READ_SHARE) * Math.min(1, p.fraction),
          counts: { ...counts, ...p.counts },
        }),
    });
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
    this.live.delete(id);
    this.lastWrite.delete(id);
    const finished = {
      status: 'done',
      phase: 'done',
      progress: 1,
      counts: { ...counts, timings } satisfies StoredCounts,
      finishedAt: new Date(),
    };
    await this.repo.update(id, finished);
    const active = this.activeRows.get(id);
    this.activeRows.delete(id);
    if (active) this.remember({ ...active, ...finished, updatedAt: new Date() });
  };

  /** Records a failed job (a cancelled one is left as it is: deleted, or re-run after a restart). */
  async failed(id: string, error: unknown, cancelled: boolean): Promise<void> {
    await this.flush(id);
    this.live.delete(id);
    this.lastWrite.delete(id);
    this.activeRows.delete(id);
    if (cancelled) return;
    const known = error instanceof EngineError;
    await rm(join(this.dirOf(id), UPLOAD_FILE), { force: true }).catch(() => {});
    // a file without one valid row keeps its counts, and its rejected rows stay reportable
    let counts: StoredCounts | undefined;
    if (error instanceof NoValidRowsError) {
      const row = await this.repo.get(id).catch(() => null);
      counts = {
        ...((row?.counts ?? {}) as StoredCounts),
        rowsRead: error.rowsRead,
        accepted: 0,
        rejected: error.rejected,
      };
      this.samples.set(id, error.rejectedSample);
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

  /**
   * Sessions cut off by a crash or a stop are queued again, oldest first; the temporary files the cut
   * left in their folders (a half-written `qualifying.bin.tmp-…` can be 30+ MB) are removed first.
   */
  async recover(): Promise<number> {
    const rows = await this.repo.unfinished();
    let queued = 0;
    for (const row of rows) {
      await removeLeftovers(this.dirOf(row.id));
      // a job that took the process down again and again (e.g. out of memory) is not retried forever
      if (row.attempts >= MAX_ATTEMPTS) {
        await this.repo.update(row.id, {
          status: 'failed',
          phase: 'failed',
          finishedAt: new Date(),
          error: {
            code: 'INTERRUPTED',
            message: `The analysis was interrupted ${row.attempts} times; upload the file again or a smaller one.`,
          },
        });
        continue;
      }
      await this.repo.update(row.id, { status: 'queued', phase: 'queued' });
      this.queue.enqueue(row.id);
      queued++;
    }
    return queued;
  }

  view(row: SessionRow): SessionView {
    const live = row.status === 'running' ? this.live.get(row.id) : undefined;
    const { timings = {}, ...stored } = (row.counts ?? {}) as StoredCounts;
    const counts: SessionCounts = { ...stored };
    if (live?.counts) {
      for (const [key, value] of Object.entries(live.counts)) {
        if (typeof value === 'number') (counts as Record<string, number>)[key] = value;
      }
    }
    return {
      _id: row.id,
      status: row.status as SessionStatusValue,
      phase: live?.phase ?? row.phase,
      progress: live?.fraction ?? row.progress,
      params: row.params as SessionParams,
      originalName: row.originalName,
      fileBytes: row.fileBytes,
      counts,
      timings,
      error: (row.error as SessionView['error']) ?? null,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  /** The caller's session by id, or their latest; another owner's session is a 404. */
  async find(owner: Owner, id: string | undefined): Promise<SessionRow> {
    if (id) {
      const hit = this.finishedRows.get(id) ?? this.activeRows.get(id);
      if (hit) {
        if (hit.userId === owner.userId && hit.companyId === owner.companyId) return hit;
        throw notFound('The session');
      }
    }
    const row = id ? await this.repo.getOwned(id, owner) : await this.repo.latest(owner);
    if (!row) throw id ? notFound('The session') : notFound('A Power 7 session');
    if (row.status === 'done') this.remember(row);
    return row;
  }

  /** Keeps a finished session's row (bounded, oldest out first). */
  private remember(row: SessionRow): void {
    this.finishedRows.set(row.id, row);
    if (this.finishedRows.size > 10_000) {
      this.finishedRows.delete(this.finishedRows.keys().next().value!);
    }
  }

  async list(owner: Owner, page: number, pageSize: number) {
    const { items, total } = await this.repo.list(owner, page, pageSize);
    return { items: items.map((row) => this.view(row)), total };
  }

  async rejectedSample(row: SessionRow, limit: number): Promise<RejectedRow[]> {
    let sample = this.samples.get(row.id);
    if (!sample) {
      if ((row.counts as SessionCounts).rejected === undefined) return [];
      const status = await readSessionStatus(this.dirOf(row.id));
      const read = status.ingest ?? status.noValidRows;
      if (!read) return [];
      sample = read.rejectedSample;
      this.samples.set(row.id, sample);
      if (this.samples.size > 10_000) this.samples.delete(this.samples.keys().next().value!);
    }
    return sample.slice(0, limit);
  }

  async rejectedCsvPath(row: SessionRow): Promise<string> {
    const file = rejectedRowsCsvPath(this.dirOf(row.id));
    try {
      await stat(file);
      return file;
    } catch {
      throw new AppError(ErrorCode.CONFLICT, 'The file of this session has not been read yet.');
    }
  }

  /** The finished session's engine tables, from the cache or reopened from its folder. */
  async open(row: SessionRow): Promise<OpenSession> {
    if (row.status !== 'done') {
      throw new AppError(
        ErrorCode.CONFLICT,
        row.status === 'failed'
          ? 'The analysis of this session failed; upload the file again.'
          : 'The analysis of this session has not finished yet.',
      );
    }
    try {
      return await this.cache.get(row.id, () => openSession(this.dirOf(row.id)));
    } catch (error) {
      throw engineErrorToApp(error);
    }
  }

  /** Deletes sessions: cancels their jobs, drops their tables, removes rows and folders. */
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.finishedRows.delete(id);
      this.activeRows.delete(id);
      this.samples.delete(id);
      await this.queue.cancel(id);
      this.cache.drop(id);
      this.live.delete(id);
    }
    await this.repo.delete(ids);
    await Promise.all(ids.map((id) => rm(this.dirOf(id), { recursive: true, force: true })));
  }

  async clearAll(owner: Owner): Promise<number> {
    const ids = await this.repo.idsOf(owner);
    await this.remove(ids);
    return ids.length;
  }

  /**
   * Deletes expired sessions with their files, and folders no session row owns (an upload cut off by
   * a crash, or refused, before its session was recorded) once they are `orphanAgeMs` old: an hour
   * while the service runs (an upload in progress has a folder and no row yet), 0 at start, when no
   * upload of this process can be in progress.
   */
  async sweep(now = new Date(), orphanAgeMs = 3_600_000): Promise<number> {
    const ids = await this.repo.expired(now);
    await this.remove(ids);
    const folders = await readdir(this.options.root).catch(() => [] as string[]);
    for (const name of folders) {
      const folder = join(this.options.root, name);
      const info = await stat(folder).catch(() => null);
      if (!info?.isDirectory() || now.getTime() - info.mtimeMs < orphanAgeMs) continue;
      if (!(await this.repo.get(name))) await rm(folder, { recursive: true, force: true });
    }
    return ids.length;
  }

  /** Readiness of the data folder: it exists and is writable. */
  async checkStorage(): Promise<boolean> {
    await mkdir(this.options.root, { recursive: true });
    await access(this.options.root, constants.W_OK);
    return true;
  }
}

export function budgetOf(params: SessionParams): Budget {
  return params.budget_type === 'fixed'
    ? { type: 'fixed', budget: params.budget ?? 0 }
    : { type: 'range', min: params.budget_min ?? 0, max: params.budget_max ?? 0 };
}
