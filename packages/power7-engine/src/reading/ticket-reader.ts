import type { ColumnMap } from '@pa/contracts/power7-file';
import {
  CsvTokenizer,
  detectDelimiter,
  fieldText,
  recordRaw,
  type CsvRecord,
  type SimpleRecordHook,
} from '../core/csv';
import { EngineError, throwIfAborted, type RejectedRow } from '../core/errors';
import { recogniseColumns } from '../core/file-columns';
import { SNIFF_BYTES } from './file-sniff';
import { joinParts } from './part-joiner';
import { PICK } from '../core/model';
import { readNumbers } from '../core/row-numbers';
import { PlainCursor, plainShape, readPlainRows, type PlainShape } from './plain-rows';
import type { CountedTickets } from '../core/table-types';

/** Tickets read from a customer file, in file order. */
export interface TicketFile {
  pool: number;
  delimiter: number;
  columns: ColumnMap;
  /** 7 ascending 1-based numbers per accepted ticket. */
  tickets: Uint8Array;
  count: number;
  /** Line number of each accepted ticket (empty when read with `rows: false`, as the next two). */
  lines: Uint32Array;
  /** Byte offset of each accepted ticket's record in the CSV that was read. */
  offsets: Float64Array;
  /** Byte length of each accepted ticket's record (line end excluded). */
  lengths: Uint32Array;
  rowsRead: number;
  rejectedCount: number;
  /** Every rejected row when `keepRejected` is on (default), else the first 100. */
  rejected: RejectedRow[];
  /** The tickets counted for an analysis as they were read (an `ArrivingCsvRead` asked to count). */
  counted?: CountedTickets;
}

/** What a reader of one byte range needs of the header, which the first reader has already read. */
export interface BodySetup {
  delimiter: number;
  columns: ColumnMap;
  /** Fields of the header, a trailing empty one not counted. */
  headerFields: number;
}

/**
 * The rows read from one run of bytes (the whole file, or one byte range of it when read in
 * parallel), line numbers counted from that run's first line.
 */
export interface TicketPart {
  tickets: Uint8Array;
  lines: Uint32Array;
  offsets: Float64Array;
  lengths: Uint32Array;
  count: number;
  rowsRead: number;
  rejectedCount: number;
  rejected: RejectedRow[];
  /** Physical lines the run held (what the next run's line numbers start after). */
  linesRead: number;
}

export interface ReadOptions {
  pool: number;
  signal?: AbortSignal;
  onRows?: (rowsRead: number) => void;
  /** Bytes consumed so far (for a progress fraction against the file size). */
  onBytes?: (bytes: number) => void;
  /** Keep every rejected row (default true); false keeps the first 100 only. */
  keepRejected?: boolean;
  maxRecordBytes?: number;
  /** Streams every rejected row here as it is found (e.g. into the rejected-rows CSV). */
  onRejected?: (row: RejectedRow) => void;
  /**
   * Valid plain rows (no quotes, digits only in the seven number columns) are read in one fused pass
   * instead of tokenize-then-validate (default true; false is for tests comparing both).
   */
  fastPath?: boolean;
  /**
   * Keep each ticket's line, offset and length (default true). False when only the tickets are
   * wanted (the CLI's analysis): `lines`, `offsets` and `lengths` come back empty, and neither the
   * readers nor the join write or copy them (16 bytes a row).
   */
  rows?: boolean;
}

/** `CsvTokenizer`'s default bound on a record's bytes. */
const DEFAULT_MAX_RECORD = 1 << 20;

/**
 * Push-driven reader of a customer CSV: feed it the bytes as they come (`push`, synchronous, throws
 * EngineError as soon as the header has no number columns or a line is too long), then `end()` for
 * the tickets. One pass, no copy of the input kept: ~0.4–0.5 s per 1M rows / 56 MB on this machine.
 */
export class TicketReader {
  private cap: number;
  private tickets: Uint8Array;
  private lines: Uint32Array;
  private offsets: Float64Array;
  private lengths: Uint32Array;
  /** Whether each ticket's line, offset and length are kept (`ReadOptions.rows`). */
  private readonly rows: boolean;
  private count = 0;
  private rejectedCount = 0;
  private readonly rejected: RejectedRow[] = [];
  private readonly keepAll: boolean;
  private readonly out = new Uint8Array(PICK);
  private tokenizer: CsvTokenizer | null = null;
  private delimiter = 0x2c;
  private nextReport = 100_000;
  /** Fields of the header, a trailing empty one (a final delimiter) not counted. */
  private headerFields = 0;
  /** Recognised columns, once the header has been read. */
  columns: ColumnMap | null = null;
  /** Data rows read so far. */
  rowsRead = 0;
  /** Bytes pushed so far. */
  bytes = 0;
  /** A range read for its tickets alone: plain rows are read without the tokenizer (`pushPlain`). */
  private plain: PlainShape | null = null;
  private readonly plainAt = new PlainCursor();
  private readonly plainVals = new Int32Array(PICK);
  /** Lines read by `pushPlain` before the tokenizer's current one (its line numbers skip them). */
  private lineShift = 0;
  /** The tokenizer holds an unfinished line: every byte after it goes through the tokenizer. */
  private tokenizerHolds = false;

  /**
   * `body`: read a byte range that starts after a line end, with the header already known (no header
   * row is expected, offsets count from `startOffset`, line 1 is the range's first line), with room
   * made for `expectedRows` rows at once when given: growing the arrays mid-read costs a copy, and
   * the first growth makes V8 throw away the optimised row reader (a call it had never seen made).
   */
  constructor(
    private readonly opts: ReadOptions,
    body?: { setup: BodySetup; startOffset: number; expectedRows?: number },
  ) {
    this.cap = Math.max(1 << 10, Math.ceil(body?.expectedRows ?? 1 << 16));
    this.rows = opts.rows !== false;
    const rowsCap = this.rows ? this.cap : 0;
    this.tickets = new Uint8Array(this.cap * PICK);
    this.lines = new Uint32Array(rowsCap);
    this.offsets = new Float64Array(rowsCap);
    this.lengths = new Uint32Array(rowsCap);
    this.keepAll = opts.keepRejected ?? true;
    if (body) {
      const { setup, startOffset } = body;
      this.delimiter = setup.delimiter;
      this.columns = setup.columns;
      this.headerFields = setup.headerFields;
      this.tokenizer = new CsvTokenizer({
        delimiter: setup.delimiter,
        onRecord: this.onRecord,
        startOffset,
        ...(opts.maxRecordBytes ? { maxRecordBytes: opts.maxRecordBytes } : {}),
      });
      this.useFastPath();
      const numbers = setup.columns.numbers;
      if (!this.rows && this.tokenizer.simple && numbers.kind === 'seven') {
        const maxRecord = opts.maxRecordBytes ?? DEFAULT_MAX_RECORD;
        this.plain = plainShape(
          numbers.indexes,
          setup.delimiter,
          setup.headerFields,
          opts.pool,
          maxRecord,
        );
      }
    }
  }

  /** The header as a range reader needs it; null until the header has been read. */
  get setup(): BodySetup | null {
    const columns = this.columns;
    return columns ? { delimiter: this.delimiter, columns, headerFields: this.headerFields } : null;
  }

  private useFastPath(): void {
    if (this.opts.fastPath !== false && this.columns?.numbers.kind === 'seven') {
      this.tokenizer!.simple = this.simpleRow(this.columns.numbers.indexes);
    }
  }

  private readonly onRecord = (rec: CsvRecord) => {
    if (!this.columns) {
      const header: string[] = [];
      for (let i = 0; i < rec.fieldCount; i++) header.push(fieldText(rec, i).trim());
      this.columns = recogniseColumns(header);
      const trailingEmpty =
        header.length > 1 && header.at(-1) === '' && !rec.quoted[header.length - 1];
      this.headerFields = header.length - (trailingEmpty ? 1 : 0);
      this.useFastPath();
      return;
    }
    this.rowsRead++;
    const line = rec.line + this.lineShift;
    const reason = rec.malformed
      ? 'malformed quotes'
      : // the field count first: a row with a field too many or too few is read against the wrong
        // columns, so its "numbers" say nothing about it
        (this.fieldCountProblem(rec) ?? readNumbers(rec, this.columns, this.opts.pool, this.out));
    if (reason !== null) {
      this.rejectedCount++;
      const row = { line, reason, raw: recordRaw(rec) };
      if (this.keepAll || this.rejected.length < 100) this.rejected.push(row);
      this.opts.onRejected?.(row);
      return;
    }
    const count = this.count;
    if (count === this.cap) this.grow();
    this.tickets.set(this.out, count * PICK);
    if (this.rows) {
      this.lines[count] = line;
      this.offsets[count] = rec.offset;
      this.lengths[count] = rec.length;
    }
    this.count = count + 1;
  };

  /**
   * A row must have as many fields as the header, or it would be read against the wrong columns (an
   * eighth number after `n7` silently dropped). One trailing empty field — a final delimiter, as some
   * exports write on every line — is tolerated, on the header and on the rows.
   */
  private fieldCountProblem(rec: CsvRecord): string | null {
    const n = rec.fieldCount;
    const h = this.headerFields;
    if (n === h) return null;
    const last = n - 1;
    if (n === h + 1 && rec.start[last] === rec.end[last] && !rec.quoted[last]) return null;
    return `wrong field count: expected ${h} fields as in the header, found ${n}`;
  }

  /**
   * The fused reader of a plain record (see `SimpleRecordHook`): walks its bytes once, reading the
   * seven number columns as it passes them. It only accepts a row it is sure is valid (every number
   * field 1+ digits, all seven present, in the pool, no duplicate); anything else goes the general way,
   * which finds the same result and writes the reason.
   */
  private simpleRow(indexes: number[]): SimpleRecordHook {
    const delim = this.delimiter;
    const pool = this.opts.pool;
    let last = 0;
    const role = new Int8Array(Math.max(...indexes) + 1).fill(-1);
    indexes.forEach((f, k) => {
      role[f] = k;
      last = Math.max(last, f);
    });
    const vals = new Int32Array(PICK);
    const rows = this.rows;
    return (buf, start, end, line, offset) => {
      let field = 0;
      let i = start;
      for (;;) {
        const k = field <= last ? role[field]! : -1;
        if (k >= 0) {
          let v = 0;
          const s = i;
          while (i < end) {
            const d = buf[i]! - 0x30;
            if (d < 0 || d > 9) break;
            v = v * 10 + d;
            i++;
          }
          // digits only, not empty, 1..pool (at most two digits, so no overflow question)
          if (i === s || i - s > 2 || v < 1 || v > pool) return false;
          if (i < end && buf[i] !== delim) return false;
          vals[k] = v;
        } else {
          while (i < end && buf[i] !== delim) i++;
        }
        if (field === last) break;
        if (i >= end) return false; // fewer fields than the number columns need
        i++; // the delimiter
        field++;
      }
      // the row's field count must be the header's (see fieldCountProblem), else it goes the general way
      let fields = field + 1;
      for (; i < end; i++) if (buf[i] === delim) fields++;
      const expected = this.headerFields;
      if (fields !== expected && !(fields === expected + 1 && buf[end - 1] === delim)) return false;
      // insertion sort of 7 + duplicate check
      for (let a = 1; a < PICK; a++) {
        const v = vals[a]!;
        let b = a - 1;
        while (b >= 0 && vals[b]! > v) {
          vals[b + 1] = vals[b]!;
          b--;
        }
        vals[b + 1] = v;
      }
      for (let a = 1; a < PICK; a++) if (vals[a] === vals[a - 1]) return false;
      const count = this.count;
      if (count === this.cap) this.grow();
      const t = this.tickets;
      const at = count * PICK;
      for (let a = 0; a < PICK; a++) t[at + a] = vals[a]!;
      if (rows) {
        this.lines[count] = line;
        this.offsets[count] = offset;
        this.lengths[count] = end - start;
      }
      this.count = count + 1;
      this.rowsRead++;
      return true;
    };
  }

  private grow(): void {
    this.cap *= 2;
    const t = new Uint8Array(this.cap * PICK);
    t.set(this.tickets);
    this.tickets = t;
    if (!this.rows) return;
    const l = new Uint32Array(this.cap);
    l.set(this.lines);
    this.lines = l;
    const o = new Float64Array(this.cap);
    o.set(this.offsets);
    this.offsets = o;
    const ln = new Uint32Array(this.cap);
    ln.set(this.lengths);
    this.lengths = ln;
  }

  /** Feeds the next bytes of the file. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (!this.tokenizer) {
      // the delimiter is detected on the first line: wait for its end (or 64 KiB of it)
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (chunk.indexOf(0x0a) === -1 && this.headBytes < SNIFF_BYTES) return;
      chunk = this.start();
    }
    this.tokenizer!.push(chunk);
    this.pushed(chunk.length);
  }

  private pushed(bytes: number): void {
    this.bytes += bytes;
    this.opts.onBytes?.(this.bytes);
    if (this.rowsRead >= this.nextReport) {
      this.opts.onRows?.(this.rowsRead);
      this.nextReport = this.rowsRead + 100_000;
    }
  }

  /**
   * `push` for the bytes of a range read for its tickets alone (`rows: false`) that hold no quote:
   * its plain rows are read in one pass over their bytes (`readPlainRows`), without the tokenizer's
   * line search and a call per row; a line that pass does not take goes to the tokenizer, with the
   * same result as through `push`.
   */
  pushPlain(chunk: Uint8Array): void {
    const shape = this.plain;
    if (shape === null || this.tokenizerHolds) {
      this.push(chunk);
      return;
    }
    const at = this.plainAt;
    const n = chunk.length;
    at.p = 0;
    while (at.p < n) {
      const linesBefore = at.lines;
      at.count = this.count;
      readPlainRows(chunk, n, shape, this.tickets, this.cap, at, this.plainVals);
      this.count = at.count;
      this.rowsRead += at.lines - linesBefore;
      if (at.p >= n) break;
      if (at.count === this.cap) {
        this.grow();
        continue;
      }
      // the line at p goes to the tokenizer, which has not seen the lines taken here
      this.lineShift = at.lines;
      const lf = at.unfinished ? -1 : chunk.indexOf(0x0a, at.p);
      if (lf === -1) {
        this.tokenizerHolds = true;
        this.tokenizer!.push(chunk.subarray(at.p));
        break;
      }
      this.tokenizer!.push(chunk.subarray(at.p, lf + 1));
      at.p = lf + 1;
    }
    this.pushed(n);
  }

  private head: Uint8Array[] = [];
  private headBytes = 0;

  /** Starts the tokenizer on the bytes held so far; returns them as one chunk. */
  private start(): Uint8Array {
    const chunk = this.head.length === 1 ? this.head[0]! : Buffer.concat(this.head);
    this.head = [];
    this.delimiter = detectDelimiter(
      chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? chunk.subarray(3) : chunk,
    );
    this.tokenizer = new CsvTokenizer({
      delimiter: this.delimiter,
      onRecord: this.onRecord,
      ...(this.opts.maxRecordBytes ? { maxRecordBytes: this.opts.maxRecordBytes } : {}),
    });
    return chunk;
  }

  /** Ends the input and hands over what was read, unchecked (see `joinParts` for the checks). */
  endPart(): TicketPart {
    if (!this.tokenizer && this.headBytes) {
      // a first line shorter than the sniff window and without a line end: the whole file
      const chunk = this.start();
      this.tokenizer!.push(chunk);
      this.bytes += chunk.length;
    }
    this.tokenizer?.end();
    const { count, rejected } = this;
    const rows = this.rows ? count : 0;
    return {
      tickets: this.tickets.subarray(0, count * PICK),
      lines: this.lines.subarray(0, rows),
      offsets: this.offsets.subarray(0, rows),
      lengths: this.lengths.subarray(0, rows),
      count,
      rowsRead: this.rowsRead,
      rejectedCount: this.rejectedCount,
      rejected,
      linesRead: (this.tokenizer?.linesRead ?? 0) + this.plainAt.lines,
    };
  }

  /**
   * Ends the input: the tickets, or FILE_EMPTY / NO_VALID_ROWS / NOT_A_TABLE (a file without one valid
   * row: `NoValidRowsError`, with the counts and the first rejected rows).
   */
  end(): TicketFile {
    const part = this.endPart();
    const setup = this.setup;
    if (!this.bytes || !setup) throw new EngineError('FILE_EMPTY', 'The file is empty.');
    return joinParts([part], setup, this.opts);
  }
}

/**
 * Reads a CSV byte stream of a customer file: header, column recognition, every row validated.
 * Cost: one pass, ~0.4–0.5 s per 1M rows / 56 MB. Throws EngineError for FILE_EMPTY, NO_NUMBER_COLUMNS,
 * NO_VALID_ROWS, LINE_TOO_LONG, NOT_A_TABLE.
 */
export async function readCsvTickets(
  chunks: AsyncIterable<Uint8Array>,
  opts: ReadOptions,
): Promise<TicketFile> {
  const reader = new TicketReader(opts);
  for await (const chunk of chunks) {
    throwIfAborted(opts.signal);
    reader.push(chunk);
  }
  return reader.end();
}
