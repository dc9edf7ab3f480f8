/**
 * The service-facing facade of the engine: everything the Power 7 HTTP service needs, over a durable
 * per-session folder on disk.
 *
 *   ingestFile()        upload on disk → session folder (tickets, original rows, rejected-rows CSV, summary)
 *   readUpload()        the same in two steps: the tickets in memory at once, the folder written meanwhile
 *   ArrivingCsvRead     reads a CSV upload while it arrives, for readUpload to take over
 *   runAnalysis()       session folder + payouts + budget → results written atomically into the folder
 *   openSession()       reopen a finished session (after a restart too) → filter / winners / CSV downloads
 *   readSessionStatus() what a folder holds (ingested? analysed?) without loading it
 *
 * Long calls take an AbortSignal and report progress `{ phase, fraction }`. Every expected failure is an
 * `EngineError` (see `./errors.ts`) with a stable `code` and a message meant for a person.
 */
// The facade only: each job lives in its own module (session-ingest, session-analysis, session-open,
// session-files, session-types; reading the file in customer-file and its parts).
export { ingestFile, readUpload } from './session-ingest';
/** Reading an upload's CSV while it arrives (hand the result to `readUpload` as `arrived`). */
export { ArrivingCsvRead, type ArrivedRead } from '../reading/arriving-read';
export { runAnalysis } from './session-analysis';
export { writeTicketSubset } from './session-subset';
export { openSession, readSessionStatus } from './session-open';
/** Live books: a session's tickets under a liability limit, selling one request at a time (ADR 024). */
export {
  createBookFolder,
  LiveBook,
  readBookMeta,
  writeBookSession,
  type BookMeta,
  type BookSale,
  type BookState,
  type BookTicketIn,
} from './book-store';
export type { BookSeed, TicketCheck } from '../analysis/book';
export { rejectedRowsCsvPath, removeLeftovers, SESSION_FILES } from './session-files';
export type * from './session-types';
export { sniffUpload, SNIFF_BYTES } from '../reading/file-sniff';
/** The CSV tokenizer, for a service that turns the engine's CSVs into another format (XLSX). */
export { CsvTokenizer, recordFields } from '../core/csv';
/** Scan worker threads started (and their kernels warmed) ahead of the first analysis, and stopped. */
export { closeScanWorkers, prestartScanWorkers } from '../analysis/analyze';
export { EngineError, CancelledError, NoValidRowsError } from '../core/errors';
export type { EngineErrorCode, RejectedRow } from '../core/errors';
export type { Budget, MatchType, Payouts, WinnerCounts } from '../core/model';
export {
  parseCombo,
  formatCombo,
  validatePool,
  DEFAULT_POOL,
  MIN_POOL,
  MAX_POOL,
} from '../core/model';
export type { DrawRow, FilterQuery, Range, SortKey } from '../core/draw-query';
export { SORT_KEYS } from '../core/draw-query';
