import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError } from '@pa/server-kit/errors';
import type { Owner } from './state';

const MB = 1024 * 1024;

/** Bytes of the files under `dir` (0 when it is gone: a session removed meanwhile). */
export async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        stat(join(entry.parentPath, entry.name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** What a user's sessions take, as the quota counts it. */
export interface QuotaUse {
  /**
   * Bytes of the user's session folders; a session whose job is queued or running counts its
   * reservation (what its folder may take once done) when that is larger than its folder so far.
   */
  bytes: number;
  /** The user's jobs queued or running. */
  jobs: number;
}

/** What a reservation is for, as the 413 names it: an upload's file and results, or a rerun's. */
export type QuotaUseKind = 'upload' | 'rerun';

/** Seconds a client is told to wait when its user has too many jobs (a short analysis's length). */
export const JOBS_RETRY_AFTER_SECONDS = 30;

/** 429: the user has `JOBS_PER_USER` jobs queued or running; `retryAfter` goes in Retry-After. */
export class TooManyJobsError extends AppError {
  readonly retryAfter = JOBS_RETRY_AFTER_SECONDS;
  constructor(limit: number) {
    super(
      ErrorCode.RATE_LIMITED,
      `You already have ${limit} ${limit === 1 ? 'analysis' : 'analyses'} queued or running, ` +
        `the most one user may have at a time; try again when one has finished.`,
    );
  }
}

/** One upload (or rerun) being counted against its user's quota until its job is recorded. */
export interface QuotaCount {
  /** Counts `bytes` more of the file; throws 413 once the user's total would pass the quota. */
  add(bytes: number): void;
  /**
   * Reserves `bytes` (what the session's folder may take once its job is done, this upload's file
   * included) and runs `record` (which stores the session row with its reservation), one call per
   * user at a time in this process: concurrent acceptances see each other. Throws 429 when the user
   * has too many jobs, 413 when the reservation does not fit beside the user's sessions and the
   * uploads still arriving.
   */
  reserve<T>(bytes: number, record: () => Promise<T>): Promise<T>;
  /** The upload is stored (now counted through its session) or refused. */
  end(): void;
}

/**
 * Disk each user's live sessions may take, and how many jobs they may have in flight (ADR 019): their
 * folders and the reservations of their queued and running jobs (read from the session rows, so every
 * process sharing the database sees them), plus the uploads this process is receiving for the user,
 * checked as every chunk arrives. Uploads the user is sending to another Power 7 process at the same
 * moment are not seen until their sessions exist; the job's check before its analysis catches what
 * slipped through.
 */
export class StorageQuota {
  private readonly receiving = new Map<string, Set<{ bytes: number }>>();
  /** The last reservation of each user under way: the next one waits for it. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly limitBytes: number,
    private readonly jobsPerUser: number,
    private readonly usedBy: (owner: Owner) => Promise<QuotaUse>,
  ) {}

  /**
   * Starts counting an upload (or a rerun's files) of `owner`; 429 at once when the user already has
   * the most jobs in flight (before a file is received for nothing).
   */
  async begin(owner: Owner, what: QuotaUseKind = 'upload'): Promise<QuotaCount> {
    const key = `${owner.companyId}/${owner.userId}`;
    const use = await this.usedBy(owner);
    if (use.jobs >= this.jobsPerUser) throw new TooManyJobsError(this.jobsPerUser);
    const uploads = this.receiving.get(key) ?? new Set();
    this.receiving.set(key, uploads);
    const mine = { bytes: 0 };
    uploads.add(mine);
    const arriving = (but?: { bytes: number }) => {
      let bytes = 0;
      for (const upload of uploads) if (upload !== but) bytes += upload.bytes;
      return bytes;
    };
    const end = () => {
      uploads.delete(mine);
      if (uploads.size === 0 && this.receiving.get(key) === uploads) this.receiving.delete(key);
    };
    return {
      add: (bytes) => {
        mine.bytes += bytes;
        const used = use.bytes + arriving();
        if (used > this.limitBytes) throw this.full(used - mine.bytes, what);
      },
      reserve: <T>(bytes: number, record: () => Promise<T>) => {
        const previous = this.turns.get(key) ?? Promise.resolve();
        const turn = previous
          .catch(() => {})
          .then(async () => {
            const now = await this.usedBy(owner);
            if (now.jobs >= this.jobsPerUser) throw new TooManyJobsError(this.jobsPerUser);
            const used = now.bytes + arriving(mine);
            if (used + bytes > this.limitBytes) throw this.full(used, what, bytes);
            const recorded = await record();
            // counted through its session's reservation from now on, not twice
            end();
            return recorded;
          });
        this.turns.set(key, turn);
        void turn
          .catch(() => {})
          .finally(() => {
            if (this.turns.get(key) === turn) this.turns.delete(key);
          });
        return turn;
      },
      end,
    };
  }

  /** 413 naming the quota, what the user's sessions already take, and (a reservation) what was asked. */
  private full(usedBytes: number, what: QuotaUseKind, askedBytes?: number): AppError {
    const asked =
      askedBytes === undefined
        ? `${what === 'upload' ? 'this file does' : "this run's copy of the tickets would"} not fit`
        : `this ${what === 'upload' ? 'upload' : 'rerun'}'s analysis may need up to ` +
          `${formatMb(askedBytes)} MB (its file and results), which does not fit`;
    const message =
      `Your storage quota of ${formatMb(this.limitBytes)} MB is used up: your sessions (with the ` +
      `analyses queued or running, and uploads in progress) take ${formatMb(usedBytes)} MB and ` +
      `${asked}. Delete sessions or choose a smaller pool to make room.`;
    // a rerun sends no file: its refusal names no field
    return new AppError(
      ErrorCode.PAYLOAD_TOO_LARGE,
      message,
      what === 'upload'
        ? [{ field: 'customer_file', message, code: ErrorCode.PAYLOAD_TOO_LARGE }]
        : undefined,
    );
  }
}

export const formatMb = (bytes: number) => String(Math.round((bytes / MB) * 10) / 10);
