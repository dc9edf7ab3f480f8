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

/** One upload being counted against its user's quota while it streams to disk. */
export interface QuotaCount {
  /** Counts `bytes` more of the file; throws 413 once the user's total would pass the quota. */
  add(bytes: number): void;
  /** The upload is stored (now counted through its session's folder) or refused. */
  end(): void;
}

/**
 * Disk each user's live sessions may take: their folders (upload and results) plus the uploads this
 * process is receiving for the user, checked as every chunk arrives. Uploads the user is sending to
 * another Power 7 process at the same moment are not seen until their sessions exist.
 */
export class StorageQuota {
  private readonly receiving = new Map<string, Set<{ bytes: number }>>();

  constructor(
    private readonly limitBytes: number,
    private readonly usedOnDisk: (owner: Owner) => Promise<number>,
  ) {}

  /** `what`: the files counted, as the 413 names them (an upload's file, or a rerun's stored tickets). */
  async begin(owner: Owner, what: 'upload' | 'rerun' = 'upload'): Promise<QuotaCount> {
    const key = `${owner.companyId}/${owner.userId}`;
    const onDisk = await this.usedOnDisk(owner);
    const uploads = this.receiving.get(key) ?? new Set();
    this.receiving.set(key, uploads);
    const mine = { bytes: 0 };
    uploads.add(mine);
    return {
      add: (bytes) => {
        mine.bytes += bytes;
        let used = onDisk;
        for (const upload of uploads) used += upload.bytes;
        if (used > this.limitBytes) throw this.full(used - mine.bytes, what);
      },
      end: () => {
        uploads.delete(mine);
        if (uploads.size === 0) this.receiving.delete(key);
      },
    };
  }

  /** 413 naming the quota and what the user's sessions already take. */
  private full(usedBytes: number, what: 'upload' | 'rerun'): AppError {
    const message =
      `Your storage quota of ${formatMb(this.limitBytes)} MB is used up: your sessions (and ` +
      `uploads in progress) take ${formatMb(usedBytes)} MB and ` +
      `${what === 'upload' ? 'this file does' : "this run's copy of the tickets would"} not fit. ` +
      `Delete sessions to make room.`;
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

const formatMb = (bytes: number) => String(Math.round((bytes / MB) * 10) / 10);
