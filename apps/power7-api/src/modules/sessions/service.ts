import { BOOKS_FOLDER } from '../books/book-folders';
import { access, constants, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobQueue } from '../jobs/job-queue';
import { LimitJobs } from '../liability/limit-jobs';
import { SessionJobRunner, type JobRunnerOptions } from './job-runner';
import { SessionMemory } from './memory';
import { SessionQueries } from './queries';
import { folderBytes, type QuotaUse } from './quota';
import type { SessionRow } from '../../db/schema';
import type { SessionRepository } from './repository';
import type { ResultCache } from './result-cache';
import type { Owner, SessionStatusValue } from './state';

const inFlight = (status: SessionStatusValue) => status === 'queued' || status === 'running';

/**
 * The Power 7 sessions of this service: `jobs` runs their analyses, `queries` answers about them,
 * `limits` runs their liability limits, and this class removes them (on request, or once expired)
 * with their files.
 */
export class Power7Sessions {
  readonly memory: SessionMemory;
  readonly jobs: SessionJobRunner;
  readonly queries: SessionQueries;
  readonly limits: LimitJobs;

  constructor(
    private readonly repo: SessionRepository,
    private readonly cache: ResultCache,
    queue: JobQueue,
    options: Omit<JobRunnerOptions, 'quota'> & {
      root: string;
      /** STORAGE_QUOTA_MB in bytes: checked again before an analysis writes its results. */
      storageQuotaBytes?: number;
      /** LIMIT_WAIT_MS: how long a limit's ask waits for its run before answering 202. */
      limitWaitMs?: number;
    },
  ) {
    this.memory = new SessionMemory(options.root, !queue.local);
    const { storageQuotaBytes, limitWaitMs = 1_000, ...runner } = options;
    this.limits = new LimitJobs(limitWaitMs);
    this.jobs = new SessionJobRunner(repo, this.memory, queue, {
      ...runner,
      ...(storageQuotaBytes === undefined
        ? {}
        : {
            quota: {
              limitBytes: storageQuotaBytes,
              usage: (owner, except) => this.usageOf(owner, except),
            },
          }),
    });
    this.queries = new SessionQueries(repo, this.memory, cache);
  }

  /** Deletes sessions: cancels their jobs, drops their tables, removes rows and folders. */
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.memory.forget(id);
      this.limits.forget(id);
      await this.jobs.cancel(id);
      this.cache.drop(id);
      this.memory.live.delete(id);
    }
    await this.repo.delete(ids);
    await Promise.all(ids.map((id) => rm(this.memory.dirOf(id), { recursive: true, force: true })));
  }

  /** Sets a session's name and/or note (empty text clears one); its updated row. */
  async edit(row: SessionRow, edit: { name?: string; note?: string }): Promise<SessionRow> {
    const values: Partial<SessionRow> = {};
    if (edit.name !== undefined) values.name = edit.name || null;
    if (edit.note !== undefined) values.note = edit.note || null;
    await this.repo.update(row.id, values);
    this.memory.edited(row.id, values);
    return { ...row, ...values, updatedAt: new Date() };
  }

  /** Deletes the owner's sessions; their ids. */
  async clearAll(owner: Owner): Promise<string[]> {
    const ids = await this.repo.idsOf(owner);
    await this.remove(ids);
    return ids;
  }

  /**
   * What the owner's sessions take against the storage quota: their folders (upload and results),
   * a queued or running job's reservation where larger than its folder so far, and how many jobs
   * are queued or running (ADR 019). `except`: a session left out (the job checking its own room).
   */
  async usageOf(owner: Owner, except?: string): Promise<QuotaUse> {
    const rows = (await this.repo.quotaRows(owner)).filter((row) => row.id !== except);
    const sizes = await Promise.all(
      rows.map(async (row) => {
        const folder = await folderBytes(this.memory.dirOf(row.id));
        return inFlight(row.status) ? Math.max(folder, row.reservedBytes) : folder;
      }),
    );
    return {
      bytes: sizes.reduce((sum, size) => sum + size, 0),
      jobs: rows.filter((row) => inFlight(row.status)).length,
    };
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
    const root = this.memory.root;
    const folders = await readdir(root).catch(() => [] as string[]);
    for (const name of folders) {
      // the live books' folder sits beside the sessions (modules/books)
      if (name === BOOKS_FOLDER) continue;
      const folder = join(root, name);
      const info = await stat(folder).catch(() => null);
      if (!info?.isDirectory() || now.getTime() - info.mtimeMs < orphanAgeMs) continue;
      if (!(await this.repo.get(name))) await rm(folder, { recursive: true, force: true });
    }
    return ids.length;
  }

  /** Readiness of the data folder: it exists and is writable. */
  async checkStorage(): Promise<boolean> {
    await mkdir(this.memory.root, { recursive: true });
    await access(this.memory.root, constants.W_OK);
    return true;
  }
}
