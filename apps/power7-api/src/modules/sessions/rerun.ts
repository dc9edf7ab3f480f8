import { copyFile, link, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError } from '@pa/server-kit/errors';
import { readSessionStatus, SESSION_FILES } from '@pa/power7-engine/session-store';
import { UPLOAD_FILE } from './memory';

/**
 * The read file of a session, reused by a rerun over the same pool, with its count tables when its
 * analysis has stored them (they depend on the tickets and the pool only: the rerun's build skips
 * counting); `ingest.json` last (it means "read").
 */
const READ_FILES = ['tickets', 'rows', 'rowIndex', 'rejectedCsv', 'counts', 'ingest'] as const;
/** Files a source may lack (a session analysed before they existed, or not analysed yet). */
const OPTIONAL_FILES: readonly string[] = [SESSION_FILES.counts];

/** A file's size, or null when an optional one is absent. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    const optional = OPTIONAL_FILES.some((name) => path.endsWith(`/${name}`));
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A file of the source session in the rerun's folder: a hard link (no copy, no disk; the files of a
 * read upload never change), or a copy where the file system has no links.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
    await copyFile(from, to);
  }
}

/** The bytes of the files a rerun takes from its source, counted against the owner's quota. */
export interface RerunSource {
  /** The source's stored rows are read again (another pool): the job reads a file. */
  reread: boolean;
  bytes: number;
  files: [from: string, to: string][];
  /** Most tickets the analysis can count: the source's accepted tickets, or its rows when read again. */
  tickets: number;
  /** The source's count tables are linked (the analysis writes none). */
  countsLinked: boolean;
}

/**
 * What a rerun of the session in `sourceDir` takes with `pool`: its read tickets, rows, index and
 * rejected rows when the pool is the one they were read with (the job then reads no file), else its
 * stored rows (`rows.csv`, the CSV form of an XLSX too) as the new session's upload, read again with
 * the new pool. 409 when the source has no read tickets (its file held no valid row, or was never read).
 */
export async function rerunSource(
  sourceDir: string,
  dir: string,
  pool: number,
): Promise<RerunSource> {
  const { ingest } = await readSessionStatus(sourceDir);
  if (!ingest) {
    throw new AppError(
      ErrorCode.CONFLICT,
      'This session has no read tickets to run again (its file was not read yet, or held no valid row); upload the file instead.',
    );
  }
  const reread = ingest.pool !== pool;
  const candidates: [string, string][] = reread
    ? [[join(sourceDir, SESSION_FILES.rows), join(dir, UPLOAD_FILE)]]
    : READ_FILES.map((name) => [
        join(sourceDir, SESSION_FILES[name]),
        join(dir, SESSION_FILES[name]),
      ]);
  const sizes = await Promise.all(candidates.map(([from]) => sizeOf(from)));
  const files = candidates.filter((_, i) => sizes[i] !== null);
  return {
    reread,
    bytes: sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0),
    files,
    tickets: reread ? ingest.rowsRead : ingest.accepted,
    countsLinked: files.some(([from]) => from.endsWith(`/${SESSION_FILES.counts}`)),
  };
}

/** Puts the source's files into the rerun's folder, in order (`ingest.json` last). */
export async function placeRerunFiles(dir: string, source: RerunSource): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [from, to] of source.files) await linkOrCopy(from, to);
}
