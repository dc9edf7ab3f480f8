/**
 * The service-facing facade of the engine: everything the Power 7 HTTP service needs, over a durable
 * per-session folder on disk.
 *
 *   ingestFile()        upload on disk → session folder (tickets, original rows, rejected-rows CSV, summary)
 *   runAnalysis()       session folder + payouts + budget → results written atomically into the folder
 *   openSession()       reopen a finished session (after a restart too) → filter / winners / CSV downloads
 *   readSessionStatus() what a folder holds (ingested? analysed?) without loading it
 *
 * Long calls take an AbortSignal and report progress `{ phase, fraction }`. Every expected failure is an
 * `EngineError` (see `./errors.ts`) with a stable `code` and a message meant for a person.
 */
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeTickets } from './analyze';
import { readCustomerFile, sniffFile, type RejectedRow, type TicketFile } from './customer-file';
export { sniffUpload, SNIFF_BYTES } from './customer-file';
/** Scan worker threads started (and their kernels warmed) ahead of the first analysis, and stopped. */
export { closeScanWorkers, prestartScanWorkers } from './analyze';
import { csvRow } from '@pa/contracts/csv';
import { queryDraws, type DrawRow, type FilterQuery, type QueryContext } from './draw-query';
import type { CountColumn } from './scan';
import { EngineError, NoValidRowsError, throwIfAborted } from './errors';
import {
  type Budget,
  DEFAULT_POOL,
  MATCH_TYPES,
  type MatchType,
  numbersOfRank,
  parseCombo,
  type Payouts,
  PICK,
  validatePool,
  type WinnerCounts,
  formatCombo,
} from './model';
import { findWinners, matchedNumbers, RowReader, ticketMasks, winnersCsv } from './winners';

export type { Budget, MatchType, Payouts, WinnerCounts };
export { EngineError, CancelledError, NoValidRowsError } from './errors';
export type { EngineErrorCode } from './errors';
export { parseCombo, formatCombo, validatePool, DEFAULT_POOL, MIN_POOL, MAX_POOL } from './model';

/** Phases in the order they run. `reading` belongs to ingest; the others to the analysis. */
export type Phase = 'reading' | 'building' | 'scanning' | 'writing' | 'done';

/** Progress of a long call: the phase and the fraction (0..1) done of the whole call. */
export interface Progress {
  phase: Phase;
  /** 0..1 over the whole call (monotonic). */
  fraction: number;
  /** Counts known so far (rows read while reading, draws evaluated / qualified while scanning). */
  counts?: {
    rowsRead?: number;
    drawsEvaluated?: number;
    drawsQualified?: number;
  };
}

/** Called with progress; keep it cheap (it runs on the computing thread). */
export type ProgressListener = (progress: Progress) => void;

/** Options every long call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** One rejected row of the customer file. */
export type { RejectedRow } from './customer-file';

/** Input of `ingestFile`. */
export interface IngestInput extends CallOptions {
  /** The uploaded file on disk (CSV or XLSX; the content decides, not the name). */
  sourcePath: string;
  /** Folder for this session; created if missing. Must not already hold a session. */
  sessionDir: string;
  /** Pool size P (8..49), default 35. Rows with numbers outside 1..P are rejected. */
  pool?: number;
  /** The upload's original file name, kept in the summary only. */
  originalName?: string;
  /**
   * The source file becomes the session's `rows.csv` (renamed, not copied) when it is CSV; it must be
   * on the same file system (else it is copied). A run cut off after that rename can be repeated with
   * the same input: the session's `rows.csv` is then read instead of the missing source.
   */
  moveSource?: boolean;
}

/** What ingest found; stored as `ingest.json` in the session folder. */
export interface IngestSummary {
  pool: number;
  format: 'csv' | 'xlsx';
  originalName: string | null;
  /** Data rows read (header excluded, fully empty lines skipped and not counted). */
  rowsRead: number;
  accepted: number;
  rejected: number;
  /** The header as found in the file, in order (every column, recognised or not). */
  columns: string[];
  /** How the numbers were found: seven columns, or one column holding seven numbers. */
  numberColumns: { kind: 'seven'; names: string[] } | { kind: 'single'; name: string };
  idColumn: string | null;
  nameColumn: string | null;
  phoneColumn: string | null;
  /** The first 100 rejected rows (the full list is the rejected-rows CSV). */
  rejectedSample: RejectedRow[];
  /** CSV delimiter detected (`,` `;` or tab); XLSX rows are stored as `,`-CSV. */
  delimiter: string;
  createdAt: string;
}

/** Input of `runAnalysis`. Payouts and budget in currency units (≥ 0, ≤ 2 decimals). */
export interface AnalysisInput extends CallOptions {
  sessionDir: string;
  payouts: Payouts;
  budget: Budget;
  /** Must equal the pool the session was ingested with when given. */
  pool?: number;
  /** Worker threads for the scan: default = number of CPU cores; 1 = in this thread. */
  workers?: number;
  /**
   * How many of the best qualifying draws go into the summary's `top` (default 20). 0 skips that
   * pass over the qualifying draws (~0.1–0.15 s for 5.7M of them) for a caller that pages through
   * `OpenSession.filter` anyway.
   */
  topDraws?: number;
}

/** Histogram of the total payout over ALL draws: `counts[i]` draws with total in [edges[i], edges[i+1]) (half-open; exact integer edges in cents). */
export interface Histogram {
  edges: number[];
  counts: number[];
}

/** Statistics of the total payout over ALL C(P,7) draws (not only the qualifying ones). */
export interface PayoutStats {
  draws: number;
  min: number;
  mean: number;
  max: number;
  /** The draw with the highest total payout (ties: smallest combo). */
  worstDraw: DrawRow;
  histogram: Histogram;
  /** The same exact counts in finer bins (budget curve); absent in results saved before it existed. */
  curve?: Histogram;
}

/** What an analysis produced; stored as `analysis.json`. */
export interface AnalysisSummary {
  pool: number;
  tickets: number;
  rejectedRows: number;
  payouts: Payouts;
  budget: Budget;
  draws: number;
  qualified: number;
  stats: PayoutStats;
  /** The 20 (`topDraws`) qualifying draws with the highest total payout, ties by combo ascending. */
  top: DrawRow[];
  /**
   * Engine timings (`buildMs`, `scanMs`, `totalMs` of the count tables and the scan) plus `saveMs`:
   * from the scan's end until the results are on disk (top draws, worst draw, files written).
   */
  timings: { buildMs: number; scanMs: number; totalMs: number; workers: number; saveMs: number };
  finishedAt: string;
}

export type { DrawRow, FilterQuery, Range, SortKey } from './draw-query';
export { SORT_KEYS } from './draw-query';

/** Answer of `OpenSession.filter`: one page of qualifying draws plus the all-draws statistics. */
export interface FilterAnswer {
  items: DrawRow[];
  page: number;
  pageSize: number;
  /** Qualifying draws that pass the filters. */
  total: number;
  totalPages: number;
  /** All qualifying draws (before the filters). */
  qualified: number;
  stats: PayoutStats;
}

/** One winning ticket of a draw. */
export interface WinnerRow {
  /** Line number of the ticket in the uploaded file. */
  line: number;
  customerId: string | null;
  name: string | null;
  phone: string | null;
  numbers: number[];
  matchType: MatchType;
  matched: number[];
  payout: number;
  /** Every original column, by header name. */
  columns: Record<string, string>;
}

/** Answer of `OpenSession.winners`: one page of winning tickets, file order. */
export interface WinnersPage {
  combo: string;
  matchType: MatchType;
  items: WinnerRow[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/** `missing`: nothing; `ingested`: upload read, no finished analysis; `analysed`: results on disk. */
export type SessionState = 'missing' | 'ingested' | 'analysed';

/** Answer of `readSessionStatus`. */
export interface SessionStatus {
  state: SessionState;
  ingest: IngestSummary | null;
  analysis: AnalysisSummary | null;
  /** A file without one valid row: what was read (its report is the rejected-rows CSV). */
  noValidRows: NoValidRowsSummary | null;
}

/** What ingest read of a file without one valid row; stored as `no-valid-rows.json`. */
export interface NoValidRowsSummary {
  rowsRead: number;
  rejected: number;
  /** The first 100 rejected rows. */
  rejectedSample: RejectedRow[];
}

/** A finished session loaded into memory; answers queries without re-running the analysis. */
export interface OpenSession {
  readonly ingest: IngestSummary;
  readonly analysis: AnalysisSummary;
  /** Filter, sort and paginate the qualifying draws. Cost: one pass over the qualifying draws. */
  filter(query: FilterQuery): FilterAnswer;
  /**
   * Winning tickets of one draw and match type (combo text form; throws INVALID_COMBO), file order,
   * page default 1, pageSize default 50 (≤ 1000). ~10 ms per 1M tickets plus the page's row reads.
   */
  winners(
    combo: string,
    matchType: MatchType,
    page?: number,
    pageSize?: number,
  ): Promise<WinnersPage>;
  /**
   * Writes the CSV of one match type or all (original columns + match_type + matched_numbers + payout)
   * to `out`, honouring back-pressure, and ends it.
   */
  writeWinnersCsv(combo: string, matchType: MatchType | 'all', out: Writable): Promise<void>;
  /** Same CSV as an async iterable of chunks (for `reply.send(Readable.from(...))`). */
  winnersCsv(combo: string, matchType: MatchType | 'all'): AsyncIterable<string>;
  /** Frees memory; the object must not be used afterwards. */
  close(): void;
}

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
} as const;

/** Extra bookkeeping stored beside the summary in `analysis.json`. */
interface StoredAnalysis extends AnalysisSummary {
  storage: { qualified: number; widths: number[]; unit: number; w: number[] };
}

const fileIn = (dir: string, name: keyof typeof SESSION_FILES) => join(dir, SESSION_FILES[name]);

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file atomically: temp file, fsync, rename over the target, fsync of the folder. */
async function writeAtomic(
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

async function syncDir(dir: string): Promise<void> {
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

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Reads a whole file into a fresh, 8-byte aligned ArrayBuffer (typed-array views need alignment). */
async function readAligned(path: string): Promise<ArrayBuffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const buf = new ArrayBuffer(size);
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
async function writeSynced(path: string, parts: (ArrayBufferView | string)[]): Promise<void> {
  const fh = await open(path, 'w');
  try {
    const bufs = parts.map((p) =>
      typeof p === 'string'
        ? Buffer.from(p, 'utf8')
        : new Uint8Array(p.buffer, p.byteOffset, p.byteLength),
    );
    await writeAllv(fh, bufs);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Writes the buffers one after the other into the file, as positioned writes of ≤ 8 MiB run four at a
 * time on the thread pool (copying ~90 MB into the page cache from one thread took ~0.25 s here).
 */
async function writeAllv(fh: Awaited<ReturnType<typeof open>>, bufs: Uint8Array[]): Promise<void> {
  const PIECE = 8 << 20;
  const pieces: { buf: Uint8Array; at: number }[] = [];
  let at = 0;
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

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

const rejectedHeader = 'line,reason,raw\r\n';
/** A rejected row's report line; its raw text is the customer's, so formulas are neutralised. */
const rejectedLine = (r: RejectedRow) => csvRow([r.line, r.reason, r.raw]);

/**
 * Writes the session files of a read customer file: `tickets.bin`, `rows.idx`, `rejected-rows.csv`
 * and `rows.csv` (the CSV `rowsSource` renamed into place, or the XLSX's CSV form already written and
 * synced to `rowsSource`), all fsynced in parallel and renamed, one fsync of the folder, then
 * `ingest.json` last (its presence means "ingested").
 */
async function writeIngest(
  dir: string,
  file: TicketFile & { format: 'csv' | 'xlsx' },
  rowsSource: string,
  rejected: string[],
  originalName: string | undefined,
): Promise<IngestSummary> {
  const stamp = `tmp-${process.pid}-${Date.now()}`;
  const tmp = {
    tickets: `${fileIn(dir, 'tickets')}.${stamp}`,
    rowIndex: `${fileIn(dir, 'rowIndex')}.${stamp}`,
    rejectedCsv: `${fileIn(dir, 'rejectedCsv')}.${stamp}`,
  };
  const rowsPath = fileIn(dir, 'rows');
  try {
    await Promise.all([
      writeSynced(tmp.tickets, [file.tickets]),
      writeSynced(tmp.rowIndex, [file.offsets, file.lines, file.lengths]),
      writeSynced(tmp.rejectedCsv, [rejectedHeader + rejected.join('')]),
      rowsSource === rowsPath || file.format === 'xlsx' ? null : syncFile(rowsSource),
    ]);
    await rename(tmp.tickets, fileIn(dir, 'tickets'));
    await rename(tmp.rowIndex, fileIn(dir, 'rowIndex'));
    await rename(tmp.rejectedCsv, fileIn(dir, 'rejectedCsv'));
    if (rowsSource !== rowsPath) {
      try {
        await rename(rowsSource, rowsPath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(rowsSource, rowsPath);
        await syncFile(rowsPath);
      }
    }
    await syncDir(dir);
  } catch (err) {
    await Promise.all(Object.values(tmp).map((t) => rm(t, { force: true })));
    throw err;
  }
  const cols = file.columns;
  const h = (i: number) => (i >= 0 ? (cols.header[i] ?? null) : null);
  const summary: IngestSummary = {
    pool: file.pool,
    format: file.format,
    originalName: originalName ?? null,
    rowsRead: file.rowsRead,
    accepted: file.count,
    rejected: file.rejectedCount,
    columns: cols.header,
    numberColumns:
      cols.numbers.kind === 'seven'
        ? { kind: 'seven', names: cols.numbers.indexes.map((i) => cols.header[i]!) }
        : { kind: 'single', name: cols.header[cols.numbers.index]! },
    idColumn: h(cols.id),
    nameColumn: h(cols.name),
    phoneColumn: h(cols.phone),
    rejectedSample: file.rejected.slice(0, 100),
    delimiter: String.fromCharCode(file.delimiter),
    createdAt: new Date().toISOString(),
  };
  await writeAtomic(fileIn(dir, 'ingest'), (fh) =>
    fh.write(JSON.stringify(summary, null, 2)).then(() => undefined),
  );
  return summary;
}

/**
 * Reads the uploaded file (CSV or XLSX, detected by content, not name), validates every row and writes
 * the session folder: `rows.csv` (the rows' original text, for downloads: the CSV itself — copied, or
 * renamed with `moveSource` — or the XLSX's first sheet as CSV), `tickets.bin` (7 bytes per ticket),
 * `rows.idx`, the full `rejected-rows.csv` (`line,reason,raw`) and, last, `ingest.json`. Throws
 * `EngineError` (FILE_EMPTY, NOT_A_TABLE, XLSX_INVALID, NO_NUMBER_COLUMNS, NO_VALID_ROWS,
 * LINE_TOO_LONG, INVALID_PARAMS, CANCELLED). ~0.5 s per 1M CSV rows (one read of the file).
 */
export async function ingestFile(input: IngestInput): Promise<IngestSummary> {
  const pool = validatePool(input.pool ?? DEFAULT_POOL);
  const dir = input.sessionDir;
  await mkdir(dir, { recursive: true });
  if (await exists(fileIn(dir, 'ingest'))) {
    throw new EngineError('INVALID_PARAMS', 'This session folder already holds an upload.');
  }
  const rowsPath = fileIn(dir, 'rows');
  let source = input.sourcePath;
  // a moved source whose run was cut off before ingest.json: its rows.csv is the source now
  if (input.moveSource && !(await exists(source)) && (await exists(rowsPath))) source = rowsPath;
  const rowsTmp = `${rowsPath}.tmp`;
  const { onProgress, signal } = input;
  const rejected: string[] = [];
  try {
    throwIfAborted(signal);
    const format = await sniffFile(source);
    const size = (await stat(source)).size;
    onProgress?.({ phase: 'reading', fraction: 0 });
    let rowsFh: Awaited<ReturnType<typeof open>> | null = null;
    let pendingWrite: Promise<unknown> = Promise.resolve();
    let rowsSource = source;
    let file;
    try {
      if (format === 'xlsx') {
        rowsFh = await open(rowsTmp, 'w');
        rowsSource = rowsTmp;
      } else if (format === 'csv' && !input.moveSource && source !== rowsPath) {
        await copyFile(source, rowsTmp);
        rowsSource = rowsTmp;
      }
      const rowsWriter = rowsFh;
      file = await readCustomerFile(source, {
        pool,
        ...(signal ? { signal } : {}),
        keepRejected: false,
        onRejected: (r) => rejected.push(rejectedLine(r)),
        onBytes: (b) =>
          onProgress?.({
            phase: 'reading',
            fraction: format === 'csv' ? Math.min(1, b / size) : 0.5,
          }),
        onRows: (n) => onProgress?.({ phase: 'reading', fraction: 0.5, counts: { rowsRead: n } }),
        ...(rowsWriter
          ? {
              csvCopy: (c: Buffer) => {
                pendingWrite = pendingWrite.then(() => rowsWriter.write(c));
              },
            }
          : {}),
      });
      await pendingWrite;
      if (rowsFh) await rowsFh.sync();
    } finally {
      if (rowsFh) await rowsFh.close();
    }
    throwIfAborted(signal);
    const summary = await writeIngest(dir, file, rowsSource, rejected, input.originalName);
    onProgress?.({ phase: 'done', fraction: 1, counts: { rowsRead: file.rowsRead } });
    return summary;
  } catch (err) {
    await rm(rowsTmp, { force: true });
    if (err instanceof NoValidRowsError) await writeNoValidRows(dir, err, rejected);
    throw err;
  }
}

/**
 * A file without one valid row still gets its rejected-rows report and its counts, so the person who
 * uploaded it can see every reason; `ingest.json` is not written (the session is not ingested).
 */
async function writeNoValidRows(
  dir: string,
  err: NoValidRowsError,
  rejected: string[],
): Promise<void> {
  await writeAtomic(fileIn(dir, 'rejectedCsv'), (fh) =>
    fh.write(rejectedHeader + rejected.join('')).then(() => undefined),
  );
  const summary: NoValidRowsSummary = {
    rowsRead: err.rowsRead,
    rejected: err.rejected,
    rejectedSample: err.rejectedSample,
  };
  await writeAtomic(fileIn(dir, 'noValidRows'), (fh) =>
    fh.write(JSON.stringify(summary)).then(() => undefined),
  );
}

/**
 * Runs the exhaustive analysis of an ingested session and writes `qualifying.bin` and `analysis.json`
 * atomically (temp file, fsync, rename; `analysis.json` last, so its presence means "done"; it is
 * removed first, so a crash mid-run leaves the session "ingested" and the run can simply be repeated).
 * Throws `EngineError` (INVALID_PARAMS, PAYOUT_TOO_LARGE, SESSION_NOT_FOUND, CANCELLED).
 * ~1 s at P=35 / 1M tickets on 2 cores.
 */
export async function runAnalysis(input: AnalysisInput): Promise<AnalysisSummary> {
  const dir = input.sessionDir;
  const ingest = await readJson<IngestSummary>(fileIn(dir, 'ingest'));
  if (!ingest) throw new EngineError('SESSION_NOT_FOUND', 'No uploaded file in this session.');
  if (input.pool !== undefined && input.pool !== ingest.pool) {
    throw new EngineError(
      'INVALID_PARAMS',
      `The session was read with pool ${ingest.pool}; upload again to use pool ${input.pool}.`,
      'pool',
    );
  }
  const topDraws = input.topDraws ?? 20;
  if (!Number.isInteger(topDraws) || topDraws < 0 || topDraws > 1000) {
    throw new EngineError(
      'INVALID_PARAMS',
      'topDraws must be a whole number from 0 to 1000.',
      'topDraws',
    );
  }
  const { onProgress, signal } = input;
  await rm(fileIn(dir, 'analysis'), { force: true });
  const tickets = new Uint8Array(await readFile(fileIn(dir, 'tickets')));
  const count = tickets.length / PICK;
  const res = await analyzeTickets(tickets, count, {
    pool: ingest.pool,
    payouts: input.payouts,
    budget: input.budget,
    ...(input.workers !== undefined ? { workers: input.workers } : {}),
    ...(signal ? { signal } : {}),
    onProgress: (p) =>
      onProgress?.({
        phase: p.phase,
        fraction: p.fraction * 0.95,
        counts: { drawsEvaluated: p.drawsEvaluated },
      }),
  });
  throwIfAborted(signal);
  onProgress?.({
    phase: 'writing',
    fraction: 0.95,
    counts: { drawsEvaluated: res.draws, drawsQualified: res.qualified },
  });
  const saveStarted = performance.now();
  const widths = res.table.chunks[0]?.counts.map((c) => c.BYTES_PER_ELEMENT) ?? [4, 4, 4, 4, 4];
  // qualifying.bin goes to the thread pool in one writev while this thread finds the top draws
  const columns: ArrayBufferView[] = [];
  for (const ch of res.table.chunks) columns.push(ch.ranks);
  for (let m = 0; m < 5; m++) {
    for (const ch of res.table.chunks) columns.push(ch.counts[m]!);
    // keep every column 4-byte aligned
    const bytes = res.table.length * widths[m]!;
    if (bytes % 4) columns.push(new Uint8Array(4 - (bytes % 4)));
  }
  const stamp = `tmp-${process.pid}-${Date.now()}`;
  const qualifyingTmp = `${fileIn(dir, 'qualifying')}.${stamp}`;
  const written = writeSynced(qualifyingTmp, columns);
  written.catch(() => {}); // awaited below; an early rejection is not "unhandled"
  let top: DrawRow[];
  let worstDraw: DrawRow;
  try {
    const ctx: QueryContext = {
      pool: ingest.pool,
      table: res.table,
      w: res.weights.w,
      unit: res.weights.unit,
    };
    top = topDraws > 0 ? queryDraws(ctx, { pageSize: topDraws }).items : [];
    const worstNumbers = numbersOfRank(res.stats.worstRank);
    const wc = winnersOfDraw(tickets, count, worstNumbers);
    worstDraw = {
      combo: formatCombo(worstNumbers),
      numbers: worstNumbers,
      winners: { 3: wc[3]!, 4: wc[4]!, 5: wc[5]!, 6: wc[6]!, 7: wc[7]! },
      totalPayout: res.stats.max,
    };
    await written;
  } catch (err) {
    await written.catch(() => {});
    await rm(qualifyingTmp, { force: true });
    throw err;
  }
  await rename(qualifyingTmp, fileIn(dir, 'qualifying'));
  await syncDir(dir);
  const payouts = { ...input.payouts };
  const summary: StoredAnalysis = {
    pool: ingest.pool,
    tickets: count,
    rejectedRows: ingest.rejected,
    payouts,
    budget: input.budget,
    draws: res.draws,
    qualified: res.qualified,
    stats: {
      draws: res.draws,
      min: res.stats.min,
      mean: res.stats.mean,
      max: res.stats.max,
      worstDraw,
      histogram: res.stats.histogram,
      curve: res.stats.curve,
    },
    top,
    timings: { ...res.timings, saveMs: 0 },
    finishedAt: new Date().toISOString(),
    storage: {
      qualified: res.qualified,
      widths,
      unit: res.weights.unit,
      w: Array.from(res.weights.w),
    },
  };
  summary.timings.saveMs = Math.round(performance.now() - saveStarted);
  await writeAtomic(fileIn(dir, 'analysis'), (fh) =>
    fh.write(JSON.stringify(summary)).then(() => undefined),
  );
  onProgress?.({
    phase: 'done',
    fraction: 1,
    counts: { drawsEvaluated: res.draws, drawsQualified: res.qualified },
  });
  const { storage: _storage, ...pub } = summary;
  void _storage;
  return pub;
}

/** Winners per number of matches (index 0..7) of one draw, straight from the tickets. */
function winnersOfDraw(tickets: Uint8Array, count: number, numbers: readonly number[]): number[] {
  const inDraw = new Uint8Array(64);
  for (const n of numbers) inDraw[n] = 1;
  const out = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let t = 0, p = 0; t < count; t++, p += PICK) {
    const m =
      inDraw[tickets[p]!]! +
      inDraw[tickets[p + 1]!]! +
      inDraw[tickets[p + 2]!]! +
      inDraw[tickets[p + 3]!]! +
      inDraw[tickets[p + 4]!]! +
      inDraw[tickets[p + 5]!]! +
      inDraw[tickets[p + 6]!]!;
    out[m]!++;
  }
  return out;
}

/** What a session folder holds, from its small JSON files only. Never throws for a missing folder. */
export async function readSessionStatus(sessionDir: string): Promise<SessionStatus> {
  const ingest = await readJson<IngestSummary>(fileIn(sessionDir, 'ingest'));
  const stored = ingest ? await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis')) : null;
  let analysis: AnalysisSummary | null = null;
  if (stored) {
    const { storage: _s, ...pub } = stored;
    void _s;
    analysis = pub;
  }
  const noValidRows = ingest
    ? null
    : await readJson<NoValidRowsSummary>(fileIn(sessionDir, 'noValidRows'));
  return {
    state: analysis ? 'analysed' : ingest ? 'ingested' : 'missing',
    ingest,
    analysis,
    noValidRows,
  };
}

/**
 * Loads a finished session (tickets + qualifying draws) for queries, without re-running anything.
 * Throws SESSION_NOT_FOUND or SESSION_NOT_READY (no finished analysis). Memory ≈ 15 B per ticket
 * + 12–24 B per qualifying draw; load time ≈ reading those files.
 */
export async function openSession(sessionDir: string): Promise<OpenSession> {
  const status = await readSessionStatus(sessionDir);
  if (!status.ingest) throw new EngineError('SESSION_NOT_FOUND', 'No such session.');
  const stored = await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis'));
  if (!stored || !status.analysis) {
    throw new EngineError('SESSION_NOT_READY', 'The analysis of this session has not finished.');
  }
  const ingest = status.ingest;
  const analysis = status.analysis;
  const tickets = new Uint8Array(await readFile(fileIn(sessionDir, 'tickets')));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sessionDir, 'rowIndex'));
  const offsets = new Float64Array(idx, 0, count);
  const lines = new Uint32Array(idx, count * 8, count);
  const lengths = new Uint32Array(idx, count * 12, count);
  const q = await readAligned(fileIn(sessionDir, 'qualifying'));
  const n = stored.storage.qualified;
  const ranks = new Uint32Array(q, 0, n);
  let off = n * 4;
  const counts: CountColumn[] = [];
  for (const width of stored.storage.widths) {
    counts.push(
      width === 1
        ? new Uint8Array(q, off, n)
        : width === 2
          ? new Uint16Array(q, off, n)
          : new Uint32Array(q, off, n),
    );
    off += n * width;
    if (off % 4) off += 4 - (off % 4);
  }
  const ctx: QueryContext = {
    pool: ingest.pool,
    table: { length: n, chunks: n ? [{ length: n, ranks, counts }] : [] },
    w: stored.storage.w,
    unit: stored.storage.unit,
  };
  const masks = ticketMasks(tickets, count);
  const rows = new RowReader(
    fileIn(sessionDir, 'rows'),
    ingest.delimiter.charCodeAt(0),
    offsets,
    lengths,
  );
  const header = ingest.columns;
  const checkMatch = (m: unknown): MatchType => {
    if (!MATCH_TYPES.includes(m as MatchType)) {
      throw new EngineError(
        'INVALID_PARAMS',
        'The match type must be 3, 4, 5, 6 or 7.',
        'matchType',
      );
    }
    return m as MatchType;
  };
  let cache: { key: string; index: Uint32Array } | null = null;
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('session is closed');
  };
  const col = (name: string | null, fields: string[]) =>
    name === null ? null : (fields[header.indexOf(name)] ?? null);

  const session: OpenSession = {
    ingest,
    analysis,
    filter(query: FilterQuery): FilterAnswer {
      ensureOpen();
      const page = queryDraws(ctx, query);
      return { ...page, qualified: n, stats: analysis.stats };
    },
    async winners(combo, matchType, page = 1, pageSize = 50): Promise<WinnersPage> {
      ensureOpen();
      const numbers = parseCombo(combo, ingest.pool);
      const m = checkMatch(matchType);
      if (!Number.isInteger(page) || page < 1) {
        throw new EngineError('INVALID_PARAMS', 'page must be a whole number ≥ 1.', 'page');
      }
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
        throw new EngineError('INVALID_PARAMS', 'pageSize must be 1..1000.', 'pageSize');
      }
      const key = `${combo}/${m}`;
      if (cache?.key !== key) cache = { key, index: findWinners(masks, numbers, m).index };
      const index = cache.index;
      const slice = index.subarray((page - 1) * pageSize, page * pageSize);
      const items: WinnerRow[] = [];
      let k = 0;
      for await (const fields of rows.rows(slice)) {
        const t = slice[k++]!;
        const columns: Record<string, string> = {};
        header.forEach((h, i) => (columns[h] = fields[i] ?? ''));
        items.push({
          line: lines[t]!,
          customerId: col(ingest.idColumn, fields),
          name: col(ingest.nameColumn, fields),
          phone: col(ingest.phoneColumn, fields),
          numbers: Array.from(tickets.subarray(t * PICK, t * PICK + PICK)),
          matchType: m,
          matched: matchedNumbers(tickets, t, numbers),
          payout: analysis.payouts[m],
          columns,
        });
      }
      return {
        combo: formatCombo(numbers),
        matchType: m,
        items,
        page,
        pageSize,
        total: index.length,
        totalPages: Math.ceil(index.length / pageSize),
      };
    },
    winnersCsv(combo, matchType) {
      ensureOpen();
      const numbers = parseCombo(combo, ingest.pool);
      const m = matchType === 'all' ? 'all' : checkMatch(matchType);
      return winnersCsv({
        header,
        tickets,
        masks,
        rows,
        numbers,
        matchType: m,
        payouts: analysis.payouts,
      });
    },
    async writeWinnersCsv(combo, matchType, out) {
      for await (const chunk of session.winnersCsv(combo, matchType)) {
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
    },
    close() {
      closed = true;
      cache = null;
    },
  };
  return session;
}

/**
 * Removes what a run cut off by a crash leaves in a session folder: temporary files being written
 * (`<file>.tmp-<pid>-<time>`, e.g. a 30+ MB `qualifying.bin.tmp-…`) and the XLSX's half-written
 * `rows.csv.tmp`. Call it only while no run of the session is under way. Returns the names removed.
 */
export async function removeLeftovers(sessionDir: string): Promise<string[]> {
  const names = await readdir(sessionDir).catch(() => [] as string[]);
  const leftovers = names.filter((name) => /\.tmp(-\d+-\d+)?$/.test(name));
  await Promise.all(leftovers.map((name) => rm(join(sessionDir, name), { force: true })));
  return leftovers;
}

/** The path of the full rejected-rows CSV (`line,reason,raw`) of a session. */
export function rejectedRowsCsvPath(sessionDir: string): string {
  return join(sessionDir, SESSION_FILES.rejectedCsv);
}
