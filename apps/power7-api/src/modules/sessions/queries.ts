import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { visibleFileName } from '@pa/contracts/text';
import {
  openSession,
  readSessionStatus,
  rejectedRowsCsvPath,
  type OpenSession,
  type RejectedRow,
} from '@pa/power7-engine/session-store';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError, notFound } from '@pa/server-kit/errors';
import type { SessionRow } from '../../db/schema';
import type { SessionMemory } from './memory';
import type { SessionRepository } from './repository';
import type { ResultCache } from './result-cache';
import type { Owner, SessionCounts, SessionView } from './state';

/** What the API answers about sessions: their rows, views, rejected rows and finished results. */
export class SessionQueries {
  constructor(
    private readonly repo: SessionRepository,
    private readonly memory: SessionMemory,
    private readonly cache: ResultCache,
  ) {}

  view(row: SessionRow): SessionView {
    const live = row.status === 'running' ? this.memory.live.get(row.id) : undefined;
    const { timings = {}, rejectedReasons = {}, ...stored } = row.counts;
    const counts: SessionCounts = { ...stored };
    if (live?.counts) {
      for (const [key, value] of Object.entries(live.counts)) {
        if (typeof value === 'number') (counts as Record<string, number>)[key] = value;
      }
    }
    return {
      _id: row.id,
      status: row.status,
      phase: live?.phase ?? row.phase,
      progress: live?.fraction ?? row.progress,
      params: row.params,
      // a name kept before invisible characters were removed on upload is shown without them
      originalName: row.originalName === null ? null : visibleFileName(row.originalName),
      fileBytes: row.fileBytes,
      counts,
      timings,
      error: row.error ?? null,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      expiresAt: row.expiresAt.toISOString(),
      sourceSessionId: row.sourceSessionId,
      name: row.name,
      note: row.note,
      rejectedReasons,
    };
  }

  /** The caller's session by id, or their latest; another owner's session is a 404. */
  async find(owner: Owner, id: string | undefined): Promise<SessionRow> {
    if (id) {
      const hit = this.memory.row(id);
      if (hit) {
        if (hit.userId === owner.userId && hit.companyId === owner.companyId) return hit;
        throw notFound('The session');
      }
    }
    const row = id ? await this.repo.getOwned(id, owner) : await this.repo.latest(owner);
    if (!row) throw id ? notFound('The session') : notFound('A Power 7 session');
    if (row.status === 'done') this.memory.finishedRows.set(row.id, row);
    return row;
  }

  async list(owner: Owner, page: number, pageSize: number) {
    const { items, total } = await this.repo.list(owner, page, pageSize);
    return { items: items.map((row) => this.view(row)), total };
  }

  async rejectedSample(row: SessionRow, limit: number): Promise<RejectedRow[]> {
    let sample = this.memory.samples.get(row.id);
    if (!sample) {
      if (row.counts.rejected === undefined) return [];
      const status = await readSessionStatus(this.memory.dirOf(row.id));
      const read = status.ingest ?? status.noValidRows;
      if (!read) return [];
      sample = read.rejectedSample;
      this.memory.samples.set(row.id, sample);
    }
    return sample.slice(0, limit);
  }

  /**
   * The session's full rejected-rows report (CSV), once its file has been read (409 before): a
   * function that opens it, so nothing is open until the answer is sent.
   */
  async rejectedCsv(row: SessionRow): Promise<() => ReadStream> {
    const file = rejectedRowsCsvPath(this.memory.dirOf(row.id));
    try {
      await stat(file);
    } catch {
      throw new AppError(ErrorCode.CONFLICT, 'The file of this session has not been read yet.');
    }
    return () => createReadStream(file);
  }

  /** Throws 409 unless the session's analysis has finished. */
  ensureFinished(row: SessionRow): void {
    if (row.status !== 'done') {
      throw new AppError(
        ErrorCode.CONFLICT,
        row.status === 'failed'
          ? 'The analysis of this session failed; upload the file again.'
          : 'The analysis of this session has not finished yet.',
      );
    }
  }

  /** The finished session's engine tables, from the cache or reopened from its folder. */
  async open(row: SessionRow): Promise<OpenSession> {
    this.ensureFinished(row);
    return this.cache.get(row.id, () => openSession(this.memory.dirOf(row.id)));
  }
}
