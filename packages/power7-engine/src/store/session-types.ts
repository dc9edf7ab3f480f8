/** The types of the session API (`session-store.ts`): inputs, progress, summaries and answers. */
import type { DrawRow, FilterQuery } from '../core/draw-query';
import type { ArrivedRead } from '../reading/arriving-read';
import type { RejectedRow } from '../core/errors';
import type { Budget, MatchType, Payouts, WinnerCounts } from '../core/model';
import type {
  BudgetInsight,
  ExceedLimit,
  ExcessLimit,
  Quantiles,
  RangeInsight,
  Shortfall,
} from '../analysis/distribution-insight';
import type { BookSeed } from '../analysis/book';
import type { ExposureRanking, ExposureRow } from '../analysis/exposure';
import type { CapRun, LimitRun } from '../analysis/liability';
import type { XlsxReadOptions } from '../reading/xlsx-reader';
import type { CountedTickets } from '../core/table-types';

/** How far reading one XLSX may go (`XlsxReadOptions`). */
export type XlsxLimits = Pick<XlsxReadOptions, 'maxMemoryMb' | 'maxSeconds'>;

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
  /** Worker threads that read a large CSV in byte ranges (0 or unset: one per core; 1: one pass). */
  workers?: number;
  /** Heap and time limits of reading an XLSX (its scratch folder is the session folder). */
  xlsx?: XlsxLimits;
  /**
   * The same file read while it arrived (`ArrivingCsvRead`): used instead of reading it again when it
   * is a CSV read for this pool (else the file is read as usual).
   */
  arrived?: ArrivedRead;
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
  /** Rejected rows by kind of reason (`reject-reasons.ts`); absent in sessions read before it existed. */
  rejectedReasons?: Record<string, number>;
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
   * The upload `readUpload` has just read, whose session files may still be being written: its
   * tickets are analysed from memory, and `analysis.json` is written only once `saved` has resolved
   * (a failed save fails the analysis). Unset: the ingested session is read from the folder.
   */
  ingested?: ReadUpload;
}

/** A customer file read by `readUpload`; its session files are written while it is analysed. */
export interface ReadUpload {
  /** What ingest found (what `ingest.json` holds once written). */
  summary: IngestSummary;
  /** The accepted tickets, 7 ascending numbers each. */
  tickets: Uint8Array;
  /** The tickets counted for the analysis as they arrived (a CSV read during its upload), if they were. */
  counted?: CountedTickets;
  /** The session files written, `ingest.json` last; rejects when they could not be written. */
  saved: Promise<IngestSummary>;
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
  /**
   * Exact quantiles of the totals (q: the smallest total T with at least q % of draws ≤ T) and the
   * draws with a 7-match winner; absent in results saved before they existed.
   */
  quantiles?: Quantiles;
  jackpotDraws?: number;
}

/** Questions of `OpenSession.insight`: budgets (≤ 50) and ranges (≤ 20), in currency. */
export interface InsightQuery {
  budgets?: number[];
  ranges?: { min: number; max: number }[];
  /** Chances of exceeding (0 ≤ p < 1, ≤ 20): the limit each asks for. */
  exceedTargets?: number[];
  /** Expected excesses (≥ 0, ≤ 20): the smallest budget within each. */
  excessTargets?: number[];
  /** Levels (0 < q < 1, ≤ 10): expected shortfall at each. */
  shortfallLevels?: number[];
}

/** Exact answers over every draw of a session (`distribution.ts`; every draw equally likely). */
export interface InsightAnswer {
  draws: number;
  min: number;
  max: number;
  mean: number;
  quantiles: Quantiles;
  jackpotDraws: number;
  jackpotShare: number;
  worst: { combo: string; totalPayout: number; winners: WinnerCounts };
  budgets: BudgetInsight[];
  ranges: RangeInsight[];
  limits: ExceedLimit[];
  excessLimits: ExcessLimit[];
  shortfall: Shortfall[];
}

/** `OpenSession.exposure`: the line (currency), what to rank, how many rows (default all). */
export interface ExposureQuery {
  over: number;
  by: 'combination' | 'customer';
  limit?: number;
}

export interface ExposureAnswer extends Omit<ExposureRanking, 'rows'> {
  over: number;
  by: 'combination' | 'customer';
  items: ExposureRow[];
}

/** `OpenSession.limit`: what a liability limit does to the file. */
export type LimitAnswer = Omit<LimitRun, 'refusedTickets' | 'breaches' | 'refusedMask'>;

/** A run's progress: tickets decided in sales order so far, of all the file's tickets. */
export interface LimitProgress {
  readonly done: number;
  readonly total: number;
}

/** `OpenSession.limitJob`: a limit's answer to come, and its run's progress (updated in place). */
export interface LimitJob {
  answer: Promise<LimitAnswer>;
  progress: LimitProgress;
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
  /**
   * Engine timings (`buildMs`, `scanMs`, `totalMs` of the count tables and the scan) plus `saveMs`:
   * from the scan's end until the results are on disk (worst draw, files written).
   */
  timings: {
    buildMs: number;
    scanMs: number;
    totalMs: number;
    workers: number;
    saveMs: number;
    /** The count tables were read from the folder's `counts.bin` (a rerun's), not counted. */
    countsReused?: boolean;
    /** The tickets were counted by the threads that read the file (`ReadUpload.counted`). */
    countedWhileRead?: boolean;
  };
  finishedAt: string;
}

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
  /** Rejected rows by kind of reason. */
  rejectedReasons?: Record<string, number>;
}

/** A finished session loaded into memory; answers queries without re-running the analysis. */
export interface OpenSession {
  readonly ingest: IngestSummary;
  readonly analysis: AnalysisSummary;
  /**
   * Filter, sort and paginate the qualifying draws, in this thread: from the filter index once
   * `filterAsync` has built it, else one pass over the qualifying draws.
   */
  filter(query: FilterQuery): FilterAnswer;
  /**
   * The same answer as `filter`, off the event loop where it costs: the first call builds the filter
   * index on a winners thread (ADR 025); payout ranges, numbers and the default sort are then answered
   * from it in well under a millisecond, and the scans that remain (winners ranges, other sorts) run
   * on the winners threads in parallel parts, stopped when `signal` aborts (CANCELLED).
   */
  filterAsync(query: FilterQuery, signal?: AbortSignal): Promise<FilterAnswer>;
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
  /** Same CSV as an async iterable of chunks (for `reply.send(Readable.from(...))`). */
  winnersCsv(combo: string, matchType: MatchType | 'all'): AsyncIterable<string>;
  /**
   * The same CSV as UTF-8 byte chunks, written on worker threads (`winners-pool.ts`) a few chunks
   * ahead of the reader: what the service streams. Throws INVALID_COMBO / INVALID_PARAMS at once.
   */
  winnersCsvBytes(combo: string, matchType: MatchType | 'all'): AsyncIterable<Uint8Array>;
  /**
   * Every qualifying draw passing the query's filters (page and sort ignored) as CSV text chunks:
   * `combo,winners_3..winners_7,total_payout`, in draw order, one batch of rows in memory at a time.
   * Throws INVALID_PARAMS at once for a bad filter.
   */
  drawsCsv(query: FilterQuery): Iterable<string>;
  /** Exact answers to budget questions over every draw (one bin read per budget at most). */
  insight(query: InsightQuery): Promise<InsightAnswer>;
  /**
   * Where the draws above a line get their payouts: the combinations or customers ranked by their
   * payouts over those draws (`analysis/exposure.ts`; about one analysis per new line, the last lines
   * kept). Throws NO_CUSTOMER_IDS for `by: customer` on a file without a customer id column.
   */
  exposure(query: ExposureQuery): Promise<ExposureAnswer>;
  /** The full ranking as CSV text chunks (header first, no byte order mark), as `exposure` orders it. */
  exposureCsv(query: Omit<ExposureQuery, 'limit'>): Promise<AsyncIterable<string>>;
  /**
   * The liability limit in sales order (`analysis/liability.ts`): tickets accepted and refused, the
   * worst draw before and after. About one analysis plus following the draws above the limit; the
   * last limits are kept. Throws INVALID_PARAMS for a limit that is not an amount.
   */
  limit(limit: number): Promise<LimitAnswer>;
  /**
   * `limit`, with the run's progress as it goes (the tickets decided so far), for a caller that
   * answers before the run ends; a run of the same limit already under way is joined.
   */
  limitJob(limit: number): LimitJob;
  /**
   * Per ticket in file order, 1 when kept under `limit`: accepted in sales order, or (`cap`) among
   * the first `cap` copies of its combination.
   */
  acceptedMask(limit: number, mode: 'sales-order' | 'cap'): Promise<Uint8Array>;
  /** What a live book opened at `limit` starts from: every draw's total, the tickets refused. */
  bookSeed(limit: number): Promise<BookSeed>;
  /** Every refused row in file order as CSV text chunks: its columns, line, breach_draw, would_be_total. */
  refusedCsv(limit: number): Promise<AsyncIterable<string>>;
  /** The largest cap per combination that keeps every draw within `limit`. */
  cap(limit: number): Promise<CapRun>;
  /** Frees memory; the object must not be used afterwards. */
  close(): void;
}
