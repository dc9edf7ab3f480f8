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
import type { Budget, MatchType, Payouts, WinnerCounts } from './model';

export type { Budget, MatchType, Payouts, WinnerCounts } from './model';
export { EngineError, CancelledError } from './errors';
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

export type ProgressListener = (progress: Progress) => void;

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** One rejected row of the customer file. */
export interface RejectedRow {
  /** 1-based line number in the file (the header is line 1; for XLSX the sheet row number). */
  line: number;
  reason: string;
  /** The row's raw text (CSV) or cells joined by `,` (XLSX), cut to 200 characters. */
  raw: string;
}

export interface IngestInput extends CallOptions {
  /** The uploaded file on disk (CSV or XLSX; the content decides, not the name). */
  sourcePath: string;
  /** Folder for this session; created if missing. Must not already hold a session. */
  sessionDir: string;
  /** Pool size P (8..49), default 35. Rows with numbers outside 1..P are rejected. */
  pool?: number;
  /** The upload's original file name, kept in the summary only. */
  originalName?: string;
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

export interface AnalysisInput extends CallOptions {
  sessionDir: string;
  payouts: Payouts;
  budget: Budget;
  /** Must equal the pool the session was ingested with when given. */
  pool?: number;
  /** Worker threads for the scan: default = number of CPU cores; 1 = in this thread. */
  workers?: number;
}

/** Histogram of the total payout over ALL draws: `counts[i]` draws in [edges[i], edges[i+1]) (last bin closed). */
export interface Histogram {
  edges: number[];
  counts: number[];
}

/** One draw with its winners per match type and total payout (currency units). */
export interface DrawRow {
  combo: string;
  numbers: number[];
  winners: WinnerCounts;
  totalPayout: number;
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
  /** The 20 qualifying draws with the highest total payout, ties by combo ascending. */
  top: DrawRow[];
  timings: { buildMs: number; scanMs: number; totalMs: number; workers: number };
  finishedAt: string;
}

export type SortKey =
  'totalPayout' | 'combo' | 'winners3' | 'winners4' | 'winners5' | 'winners6' | 'winners7';

export interface Range {
  min?: number;
  max?: number;
}

/** A query over the qualifying draws. Every filter is optional; ranges are inclusive. */
export interface FilterQuery {
  /** 1-based, default 1. */
  page?: number;
  /** Default 20, at most 1000. */
  pageSize?: number;
  /** Default `totalPayout` descending; ties always by combo ascending. */
  sort?: { by: SortKey; direction: 'asc' | 'desc' };
  winners?: Partial<Record<MatchType, Range>>;
  totalPayout?: Range;
  /** Numbers every listed draw must contain. */
  mustInclude?: number[];
  /** Numbers no listed draw may contain. */
  mustExclude?: number[];
}

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

export interface WinnersPage {
  combo: string;
  matchType: MatchType;
  items: WinnerRow[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export type SessionState = 'missing' | 'ingested' | 'analysed';

export interface SessionStatus {
  state: SessionState;
  ingest: IngestSummary | null;
  analysis: AnalysisSummary | null;
}

/** A finished session loaded into memory; answers queries without re-running the analysis. */
export interface OpenSession {
  readonly ingest: IngestSummary;
  readonly analysis: AnalysisSummary;
  /** Filter, sort and paginate the qualifying draws. Cost: one pass over the qualifying draws. */
  filter(query: FilterQuery): FilterAnswer;
  /** Winning tickets of one draw and match type (combo text form; throws INVALID_COMBO). ~10 ms per 1M tickets. */
  winners(combo: string, matchType: MatchType, page?: number, pageSize?: number): WinnersPage;
  /** Writes the CSV of one match type or all (original columns + match_type + matched_numbers + payout). */
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
  tickets: 'tickets.bin',
  rows: 'rows.csv',
  rowIndex: 'rows.idx',
  analysis: 'analysis.json',
  qualifying: 'qualifying.bin',
} as const;

/**
 * Reads the uploaded file (CSV or XLSX, detected by content), validates every row and writes the
 * session folder: tickets (7 bytes each), the original rows for downloads, the full rejected-rows CSV
 * and `ingest.json`. Throws `EngineError` (FILE_EMPTY, NOT_A_TABLE, XLSX_INVALID, NO_NUMBER_COLUMNS,
 * NO_VALID_ROWS, LINE_TOO_LONG, CANCELLED). ~1–2 s per 1M CSV rows.
 */
export async function ingestFile(input: IngestInput): Promise<IngestSummary> {
  void input;
  throw new Error('not implemented yet');
}

/**
 * Runs the exhaustive analysis of an ingested session and writes `qualifying.bin` and `analysis.json`
 * atomically (temp file, fsync, rename; `analysis.json` last, so its presence means "done"). Running it
 * again replaces the previous results. Throws `EngineError` (INVALID_PARAMS, PAYOUT_TOO_LARGE,
 * SESSION_NOT_FOUND, CANCELLED). ~1 s at P=35 / 1M tickets on 2 cores.
 */
export async function runAnalysis(input: AnalysisInput): Promise<AnalysisSummary> {
  void input;
  throw new Error('not implemented yet');
}

/** What a session folder holds, from its small JSON files only. Never throws for a missing folder. */
export async function readSessionStatus(sessionDir: string): Promise<SessionStatus> {
  void sessionDir;
  throw new Error('not implemented yet');
}

/**
 * Loads a finished session (tickets + qualifying draws) for queries. Throws SESSION_NOT_FOUND or
 * SESSION_NOT_READY (no finished analysis). Memory ≈ 8 B per ticket + 8–24 B per qualifying draw.
 */
export async function openSession(sessionDir: string): Promise<OpenSession> {
  void sessionDir;
  throw new Error('not implemented yet');
}

/** The path of the full rejected-rows CSV (`line,reason,raw`) of a session. */
export function rejectedRowsCsvPath(sessionDir: string): string {
  return `${sessionDir}/${SESSION_FILES.rejectedCsv}`;
}
