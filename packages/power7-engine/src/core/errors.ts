/**
 * Every failure the engine expects (bad file, bad parameters, bad combo, cancellation) is an
 * `EngineError` with a stable `code` and a message a person understands, so a service can map it
 * to a 4xx answer and a command line can print it as is.
 */
export type EngineErrorCode =
  | 'FILE_EMPTY'
  | 'FILE_UNREADABLE'
  | 'NOT_A_TABLE'
  | 'XLSX_INVALID'
  | 'XLSX_TOO_LARGE'
  | 'NO_NUMBER_COLUMNS'
  | 'NO_VALID_ROWS'
  | 'LINE_TOO_LONG'
  | 'INVALID_PARAMS'
  | 'INVALID_COMBO'
  | 'PAYOUT_TOO_LARGE'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_NOT_READY'
  /** A ranking by customer asked of a file without a customer id column. */
  | 'NO_CUSTOMER_IDS'
  /** A live book that does not exist (or is not the caller's), or one closed to sales. */
  | 'BOOK_NOT_FOUND'
  | 'BOOK_CLOSED'
  | 'CANCELLED';

/** An expected failure with a stable code and a message for people. */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  /** Optional field name (e.g. `payout_3`, `combo`) for validation answers. */
  readonly field: string | undefined;

  constructor(code: EngineErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.field = field;
  }
}

/** One rejected row of the customer file. */
export interface RejectedRow {
  /** 1-based line number in the file (the header is line 1; for XLSX the sheet row number). */
  line: number;
  reason: string;
  /** The row's raw text (CSV) or cells joined by `,` (XLSX), cut to 200 characters. */
  raw: string;
}

/**
 * NO_VALID_ROWS of a file read to its end (no data row, or every row rejected): it carries what was
 * read, so the counts and the rejected rows can still be reported.
 */
export class NoValidRowsError extends EngineError {
  constructor(
    message: string,
    readonly rowsRead: number,
    readonly rejected: number,
    readonly rejectedSample: RejectedRow[],
  ) {
    super('NO_VALID_ROWS', message);
    this.name = 'NoValidRowsError';
  }
}

/** Thrown when an AbortSignal fired; `code` is `CANCELLED`. */
export class CancelledError extends EngineError {
  constructor(message = 'The analysis was cancelled.') {
    super('CANCELLED', message);
    this.name = 'CancelledError';
  }
}

/** Throws `CancelledError` when the signal has fired. Cheap; call between chunks of work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** For states the code rules out; a failure here is a bug, not bad input. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Invariant failed: ${message}`);
}
