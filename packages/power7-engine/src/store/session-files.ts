/** The session folder on disk: its file names and the durable (fsync + rename) ways to write them. */
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DrawBytes } from '../core/distribution-group';
import { BINOM } from '../core/model';
import type { CountTables } from '../core/table-types';
import type { AnalysisSummary } from './session-types';
import { XLSX_SCRATCH_PREFIX } from '../reading/xlsx-reader';

/** File names inside a session folder (stable, for the service's own bookkeeping). */
export const SESSION_FILES = {
  ingest: 'ingest.json',
  rejectedCsv: 'rejected-rows.csv',
  noValidRows: 'no-valid-rows.json',
  tickets: 'tickets.bin',
  rows: 'rows.csv',
  rowIndex: 'rows.idx',
  analysis: 'analysis.json',
  qualifying: 'qualifying.bin',
  /** Every draw's total, grouped by bin (`distribution.ts`), and the per-bin counts and sums. */
  distribution: 'distribution.bin',
  distributionIndex: 'distribution-index.bin',
  /** The count tables (tickets and pool only): a rerun with other payouts takes them over. */
  counts: 'counts.bin',
} as const;

/** Extra bookkeeping stored beside the summary in `analysis.json`. */
export interface StoredAnalysis extends AnalysisSummary {
  storage: {
    qualified: number;
    widths: number[];
    unit: number;
    w: number[];
    /**
     * The distribution's bin width is 2^shift units, and the bins that hold draws (the index stores
     * those only); absent in results saved before it existed.
     */
    distribution?: {
      shift: number;
      bins: [number, number];
      /** Bytes per draw in `distribution.bin` (`drawBytes`); absent: 8, the whole totals. */
      bytes?: DrawBytes;
    };
  };
}

export const fileIn = (dir: string, name: keyof typeof SESSION_FILES) =>
  join(dir, SESSION_FILES[name]);

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file atomically: temp file, fsync, rename over the target, fsync of the folder. */
export async function writeAtomic(
  path: string,
  write: (fh: Awaited<ReturnType<typeof open>>) => Promise<void>,
): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  const fh = await open(tmp, 'w');
  try {
    await write(fh);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await syncDir(path.slice(0, path.lastIndexOf('/')) || '.');
}

export async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // some file systems refuse fsync on a folder; the renames are still atomic
  }
}

export async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Reads a whole file into a fresh, 8-byte aligned ArrayBuffer (typed-array views need alignment). */
export async function readAligned(path: string, shared?: false): Promise<ArrayBuffer>;
export async function readAligned(path: string, shared: true): Promise<SharedArrayBuffer>;
export async function readAligned(
  path: string,
  shared = false,
): Promise<ArrayBuffer | SharedArrayBuffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    // shared: worker threads read it without a copy (the winners threads)
    const buf = shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    const u8 = new Uint8Array(buf);
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(u8, off, Math.min(size - off, 1 << 26), off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf;
  } finally {
    await fh.close();
  }
}

/** A temp file written, fsynced and closed (not yet renamed into place). */
export async function writeSynced(
  path: string,
  parts: (ArrayBufferView | string)[] | AsyncIterable<ArrayBufferView>,
): Promise<void> {
  const fh = await open(path, 'w');
  const bytes = (p: ArrayBufferView | string) =>
    typeof p === 'string'
      ? Buffer.from(p, 'utf8')
      : new Uint8Array(p.buffer, p.byteOffset, p.byteLength);
  try {
    if (Array.isArray(parts)) await writeAllv(fh, parts.map(bytes));
    else {
      // parts made while the file is written (each written before the next is made)
      let at = 0;
      for await (const part of parts) {
        await writeAllv(fh, [bytes(part)], at);
        at += part.byteLength;
      }
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A temp file written part after part as they are made, then `finish`ed (fsynced, closed). */
export interface PieceFile {
  /** Appends `part` (call again only once this has settled). */
  write(part: ArrayBufferView): Promise<void>;
  finish(): Promise<void>;
  /** Closes and removes the file (after a failure). */
  discard(): Promise<void>;
}

export async function openPieceFile(path: string): Promise<PieceFile> {
  const fh = await open(path, 'w');
  let at = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh.close();
  };
  return {
    write(part) {
      const from = at;
      at += part.byteLength;
      return writeAllv(fh, [new Uint8Array(part.buffer, part.byteOffset, part.byteLength)], from);
    },
    async finish() {
      try {
        await fh.sync();
      } finally {
        await close();
      }
    },
    async discard() {
      await close().catch(() => {});
      await rm(path, { force: true });
    },
  };
}

/**
 * Writes the buffers one after the other into the file, as positioned writes of ≤ 8 MiB run four at a
 * time on the thread pool (copying ~90 MB into the page cache from one thread took ~0.25 s here).
 */
async function writeAllv(
  fh: Awaited<ReturnType<typeof open>>,
  bufs: Uint8Array[],
  from = 0,
): Promise<void> {
  const PIECE = 8 << 20;
  const pieces: { buf: Uint8Array; at: number }[] = [];
  let at = from;
  for (const buf of bufs) {
    for (let o = 0; o < buf.byteLength; o += PIECE) {
      const piece = buf.subarray(o, Math.min(buf.byteLength, o + PIECE));
      pieces.push({ buf: piece, at: at + o });
    }
    at += buf.byteLength;
  }
  let next = 0;
  const lane = async () => {
    while (next < pieces.length) {
      const { buf, at: pos } = pieces[next++]!;
      let off = 0;
      while (off < buf.byteLength) {
        const { bytesWritten } = await fh.write(buf, off, buf.byteLength - off, pos + off);
        off += bytesWritten;
      }
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}

export async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Removes what a run cut off by a crash leaves in a session folder: temporary files being written
 * (`<file>.tmp-<pid>-<time>`, e.g. a 30+ MB `qualifying.bin.tmp-…`) and the XLSX's half-written
 * `rows.csv.tmp`. Call it only while no run of the session is under way. Returns the names removed.
 */
export async function removeLeftovers(sessionDir: string): Promise<string[]> {
  const names = await readdir(sessionDir).catch(() => [] as string[]);
  // and the scratch folder of an XLSX read (ExcelJS's temp files) whose process was killed
  const leftovers = names.filter(
    (name) => /\.tmp(-\d+-\d+)?$/.test(name) || name.startsWith(XLSX_SCRATCH_PREFIX),
  );
  await Promise.all(
    leftovers.map((name) => rm(join(sessionDir, name), { force: true, recursive: true })),
  );
  return leftovers;
}

/** The path of the full rejected-rows CSV (`line,reason,raw`) of a session. */
export function rejectedRowsCsvPath(sessionDir: string): string {
  return join(sessionDir, SESSION_FILES.rejectedCsv);
}

/** `counts.bin`: a header of u32s, then c3, c4, c5, c6, the distinct tickets' ranks and multiplicities. */
const COUNTS_MAGIC = 0x54433750; // "P7CT"
const COUNTS_VERSION = 1;
const COUNTS_HEADER = 16;

/** The content of `counts.bin` for the count tables of `tickets` tickets, in order. */
export function countTableParts(counts: CountTables, tickets: number): Uint32Array[] {
  const header = new Uint32Array(COUNTS_HEADER);
  header.set([COUNTS_MAGIC, COUNTS_VERSION, counts.pool, tickets, counts.ticketRanks.length]);
  header.set(counts.maxCount.slice(3, 8), 5);
  const { c3, c4, c5, c6, ticketRanks, ticketMult } = counts;
  return [header, c3, c4, c5, c6, ticketRanks, ticketMult];
}

/**
 * Reads `counts.bin` into arrays from `take` when it holds the count tables of `tickets` tickets over
 * `pool` (header and size checked); null when it is absent or does not fit (they are counted again).
 */
export async function readCountTables(
  path: string,
  pool: number,
  tickets: number,
  take: (length: number) => Uint32Array,
): Promise<CountTables | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const header = new Uint32Array(COUNTS_HEADER);
    const headerBytes = new Uint8Array(header.buffer);
    const { bytesRead } = await fh.read(headerBytes, 0, headerBytes.length, 0);
    const distinct = header[4]!;
    const lengths = [3, 4, 5, 6].map((k) => BINOM[pool]![k]!).concat([distinct, distinct]);
    const size = 4 * (COUNTS_HEADER + lengths.reduce((sum, n) => sum + n, 0));
    if (
      bytesRead !== headerBytes.length ||
      header[0] !== COUNTS_MAGIC ||
      header[1] !== COUNTS_VERSION ||
      header[2] !== pool ||
      header[3] !== tickets ||
      distinct < 1 ||
      distinct > tickets ||
      (await fh.stat()).size !== size
    ) {
      return null;
    }
    const arrays: Uint32Array[] = [];
    let at = 4 * COUNTS_HEADER;
    for (const length of lengths) {
      const array = take(length);
      const bytes = new Uint8Array(array.buffer, array.byteOffset, length * 4);
      for (let off = 0; off < bytes.length;) {
        const read = await fh.read(bytes, off, bytes.length - off, at + off);
        if (read.bytesRead === 0) return null;
        off += read.bytesRead;
      }
      arrays.push(array);
      at += bytes.length;
    }
    const [c3, c4, c5, c6, ticketRanks, ticketMult] = arrays as [
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
    const maxCount = [0, 0, 0, ...header.subarray(5, 10)];
    return { pool, c3, c4, c5, c6, ticketRanks, ticketMult, maxCount };
  } finally {
    await fh.close();
  }
}
