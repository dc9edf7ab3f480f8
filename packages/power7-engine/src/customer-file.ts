import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { detectColumns, noNumberColumnsMessage, type ColumnMap } from '@pa/contracts/power7-file';
import {
  CsvTokenizer,
  csvField,
  detectDelimiter,
  fieldText,
  recordRaw,
  type CsvRecord,
  type SimpleRecordHook,
} from './csv';
import { EngineError, NoValidRowsError, throwIfAborted } from './errors';
import { PICK } from './model';
import { checkXlsxLimits } from './xlsx-guard';

export type { ColumnMap } from '@pa/contracts/power7-file';

/** A row left out of the analysis, as the rejected-rows report lists it. */
export interface RejectedRow {
  /** 1-based line number in the file (the header is line 1; for XLSX the sheet row number). */
  line: number;
  reason: string;
  /** The row's raw text (CSV) or cells joined by `,` (XLSX), cut to 200 characters. */
  raw: string;
}

/** Tickets read from a customer file, in file order. */
export interface TicketFile {
  pool: number;
  delimiter: number;
  columns: ColumnMap;
  /** 7 ascending 1-based numbers per accepted ticket. */
  tickets: Uint8Array;
  count: number;
  /** Line number of each accepted ticket. */
  lines: Uint32Array;
  /** Byte offset of each accepted ticket's record in the CSV that was read. */
  offsets: Float64Array;
  /** Byte length of each accepted ticket's record (line end excluded). */
  lengths: Uint32Array;
  rowsRead: number;
  rejectedCount: number;
  /** Every rejected row when `keepRejected` is on (default), else the first 100. */
  rejected: RejectedRow[];
}

/** The shared header rules (`@pa/contracts/power7-file`); throws NO_NUMBER_COLUMNS naming what was found. */
export function recogniseColumns(header: string[]): ColumnMap {
  const columns = detectColumns(header);
  if (!columns) throw new EngineError('NO_NUMBER_COLUMNS', noNumberColumnsMessage(header));
  return columns;
}

const SPACE = 0x20;
const TAB = 0x09;

/**
 * Validates one record's numbers straight from its bytes into `out[0..7)` (ascending).
 * Returns null when valid, else the reason.
 */
function readNumbers(
  rec: CsvRecord,
  cols: ColumnMap,
  pool: number,
  out: Uint8Array,
): string | null {
  const buf = rec.buf;
  let count = 0;
  let empty = true;
  const vals = tmpVals;
  if (cols.numbers.kind === 'seven') {
    const idx = cols.numbers.indexes;
    for (let k = 0; k < PICK; k++) {
      const f = idx[k]!;
      if (f >= rec.fieldCount) continue;
      let s = rec.start[f]!;
      let e = rec.end[f]!;
      while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
      while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
      if (s === e) continue;
      empty = false;
      let v = 0;
      if (buf[s] === 0x2b) s++; // leading +
      if (s === e) return `"${fieldText(rec, f).trim()}" is not an integer`;
      for (let i = s; i < e; i++) {
        const d = buf[i]! - 0x30;
        if (d < 0 || d > 9) return `"${fieldText(rec, f).trim()}" is not an integer`;
        v = v * 10 + d;
        if (v > 1e6) v = 1e6;
      }
      vals[count++] = v;
    }
    if (empty) return 'empty: no numbers';
    if (count !== PICK) return `wrong count: expected 7 numbers, found ${count}`;
  } else {
    const f = cols.numbers.index;
    if (f < rec.fieldCount) {
      const s0 = rec.start[f]!;
      const e0 = rec.end[f]!;
      let i = s0;
      while (i < e0) {
        const c = buf[i]!;
        if (c === SPACE || c === TAB || c === 0x2c || c === 0x3b || c === 0x2d) {
          i++;
          continue;
        }
        const ts = i;
        let v = 0;
        let ok = true;
        while (i < e0) {
          const ch = buf[i]!;
          if (ch === SPACE || ch === TAB || ch === 0x2c || ch === 0x3b || ch === 0x2d) break;
          const d = ch - 0x30;
          if (d < 0 || d > 9) ok = false;
          else v = Math.min(v * 10 + d, 1e6);
          i++;
        }
        empty = false;
        if (!ok) return `"${buf.toString('utf8', ts, i)}" is not an integer`;
        if (count < 64) vals[count] = v;
        count++;
      }
    }
    if (empty) return 'empty: no numbers';
    if (count !== PICK) return `wrong count: expected 7 numbers, found ${count}`;
  }
  for (let k = 0; k < PICK; k++) {
    const v = vals[k]!;
    if (v < 1 || v > pool) return `out of pool: ${v} is not in 1..${pool}`;
  }
  // insertion sort of 7 + duplicate check
  for (let k = 1; k < PICK; k++) {
    const v = vals[k]!;
    let j = k - 1;
    while (j >= 0 && vals[j]! > v) {
      vals[j + 1] = vals[j]!;
      j--;
    }
    vals[j + 1] = v;
  }
  for (let k = 1; k < PICK; k++) {
    if (vals[k] === vals[k - 1]) return `duplicate: ${vals[k]} appears more than once`;
  }
  for (let k = 0; k < PICK; k++) out[k] = vals[k]!;
  return null;
}
const tmpVals = new Float64Array(64);

export type SourceFormat = 'csv' | 'xlsx' | 'empty' | 'binary';

/** How many leading bytes `sniffBytes` / `sniffFile` look at. */
export const SNIFF_BYTES = 65536;

/**
 * Decides a file's format from its first bytes (up to `SNIFF_BYTES`): XLSX by its zip signature
 * PK\x03\x04, binary by NUL bytes or many control characters, empty when only blanks, else CSV.
 */
export function sniffBytes(head: Uint8Array): SourceFormat {
  const b = head.subarray(0, SNIFF_BYTES);
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04)
    return 'xlsx';
  let start = 0;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  let blank = true;
  let ctl = 0;
  for (let i = start; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0) return 'binary';
    if (c !== SPACE && c !== TAB && c !== 0x0a && c !== 0x0d) {
      blank = false;
      if (c < 0x20) ctl++;
    }
  }
  if (blank) return 'empty';
  // many control characters: not text
  if (ctl > b.length / 100 + 2) return 'binary';
  return 'csv';
}

/** Looks at a file's first bytes (see `sniffBytes`). */
export async function sniffFile(path: string): Promise<SourceFormat> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return sniffBytes(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** The engine's error for a file whose first bytes are not a table (`sniffBytes` said so). */
export function formatError(format: 'empty' | 'binary'): EngineError {
  return format === 'empty'
    ? new EngineError('FILE_EMPTY', 'The file is empty.')
    : new EngineError(
        'NOT_A_TABLE',
        'The file is neither CSV text nor an XLSX workbook (it contains binary data).',
      );
}

/**
 * What the first bytes of an upload already show (`head`: its first `SNIFF_BYTES` or more, `complete`
 * when that is the whole file): the error reading it would end with — FILE_EMPTY (blank), NOT_A_TABLE
 * (binary), NO_NUMBER_COLUMNS (a CSV header without them) — or null when nothing is wrong so far (a
 * CSV with a usable header, an XLSX, or a header longer than `head`). Decided exactly as
 * `readCustomerFile` decides, on the same bytes.
 */
export function sniffUpload(head: Uint8Array, complete: boolean): EngineError | null {
  const format = sniffBytes(head);
  if (format === 'empty' || format === 'binary') return formatError(format);
  if (format !== 'csv') return null;
  const bytes = complete ? head : head.subarray(0, SNIFF_BYTES);
  let header: string[] | null = null;
  const tokenizer = new CsvTokenizer({
    delimiter: detectDelimiter(bytes[0] === 0xef ? bytes.subarray(3) : bytes),
    onRecord: (rec) => {
      if (header) return;
      header = [];
      for (let i = 0; i < rec.fieldCount; i++) header.push(fieldText(rec, i).trim());
    },
  });
  try {
    tokenizer.push(bytes);
    if (complete) tokenizer.end();
  } catch {
    return null; // a broken quote or a too-long line: reading the whole file reports it
  }
  if (!header) return null;
  try {
    recogniseColumns(header);
    return null;
  } catch (err) {
    return err as EngineError;
  }
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
}

/**
 * Push-driven reader of a customer CSV: feed it the bytes as they come (`push`, synchronous, throws
 * EngineError as soon as the header has no number columns or a line is too long), then `end()` for
 * the tickets. One pass, no copy of the input kept: ~0.4–0.5 s per 1M rows / 56 MB on this machine.
 */
export class TicketReader {
  private cap = 1 << 16;
  private tickets = new Uint8Array(this.cap * PICK);
  private lines = new Uint32Array(this.cap);
  private offsets = new Float64Array(this.cap);
  private lengths = new Uint32Array(this.cap);
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

  constructor(private readonly opts: ReadOptions) {
    this.keepAll = opts.keepRejected ?? true;
  }

  private readonly onRecord = (rec: CsvRecord) => {
    if (!this.columns) {
      const header: string[] = [];
      for (let i = 0; i < rec.fieldCount; i++) header.push(fieldText(rec, i).trim());
      this.columns = recogniseColumns(header);
      const trailingEmpty =
        header.length > 1 && header.at(-1) === '' && !rec.quoted[header.length - 1];
      this.headerFields = header.length - (trailingEmpty ? 1 : 0);
      if (this.opts.fastPath !== false && this.columns.numbers.kind === 'seven') {
        this.tokenizer!.simple = this.simpleRow(this.columns.numbers.indexes);
      }
      return;
    }
    this.rowsRead++;
    const reason = rec.malformed
      ? 'malformed quotes'
      : (readNumbers(rec, this.columns, this.opts.pool, this.out) ?? this.fieldCountProblem(rec));
    if (reason !== null) {
      this.rejectedCount++;
      const row = { line: rec.line, reason, raw: recordRaw(rec) };
      if (this.keepAll || this.rejected.length < 100) this.rejected.push(row);
      this.opts.onRejected?.(row);
      return;
    }
    const count = this.count;
    if (count === this.cap) this.grow();
    this.tickets.set(this.out, count * PICK);
    this.lines[count] = rec.line;
    this.offsets[count] = rec.offset;
    this.lengths[count] = rec.length;
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
      this.lines[count] = line;
      this.offsets[count] = offset;
      this.lengths[count] = end - start;
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
    this.bytes += chunk.length;
    this.opts.onBytes?.(this.bytes);
    if (this.rowsRead >= this.nextReport) {
      this.opts.onRows?.(this.rowsRead);
      this.nextReport = this.rowsRead + 100_000;
    }
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

  /**
   * Ends the input: the tickets, or FILE_EMPTY / NO_VALID_ROWS / NOT_A_TABLE (a file without one valid
   * row: `NoValidRowsError`, with the counts and the first rejected rows).
   */
  end(): TicketFile {
    if (!this.tokenizer && this.headBytes) this.tokenizer!.push(this.start());
    this.tokenizer?.end();
    const columns = this.columns;
    if (!this.bytes || !columns) throw new EngineError('FILE_EMPTY', 'The file is empty.');
    const { rowsRead, count, rejected } = this;
    this.opts.onRows?.(rowsRead);
    if (count === 0) {
      const why =
        rowsRead === 0
          ? 'it has a header but no data rows'
          : `all ${rowsRead} rows were rejected (first: line ${rejected[0]?.line}: ${rejected[0]?.reason})`;
      throw new NoValidRowsError(
        `No valid ticket in the file: ${why}.`,
        rowsRead,
        this.rejectedCount,
        rejected.slice(0, 100),
      );
    }
    return {
      pool: this.opts.pool,
      delimiter: this.delimiter,
      columns,
      tickets: this.tickets.subarray(0, count * PICK),
      count,
      lines: this.lines.subarray(0, count),
      offsets: this.offsets.subarray(0, count),
      lengths: this.lengths.subarray(0, count),
      rowsRead,
      rejectedCount: this.rejectedCount,
      rejected,
    };
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

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('result' in o) return cellText(o.result);
    if ('richText' in o && Array.isArray(o.richText)) {
      return (o.richText as { text: string }[]).map((r) => r.text).join('');
    }
    if ('text' in o) return cellText(o.text);
    if ('error' in o) return String(o.error);
  }
  return String(v);
}

/**
 * Streams the first sheet of an XLSX file as CSV bytes (`,`-separated, RFC 4180 quoting), one line per
 * sheet row, blank lines for skipped rows so line numbers equal sheet row numbers; rows shorter than
 * the header are padded with empty cells. Throws XLSX_INVALID for a broken or truncated workbook,
 * XLSX_TOO_LARGE for one whose parts pass `XLSX_LIMITS` (a huge cell, row or shared-strings part).
 */
export async function* xlsxAsCsv(path: string): AsyncGenerator<Buffer> {
  // a few hundred KB of zip can hold a cell of hundreds of MB: refuse it before ExcelJS holds it
  await checkXlsxLimits(path);
  let reader: ExcelJS.stream.xlsx.WorkbookReader;
  try {
    reader = new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(path), {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    } as ExcelJS.stream.xlsx.WorkbookStreamReaderOptions);
  } catch (err) {
    throw new EngineError(
      'XLSX_INVALID',
      `The XLSX file cannot be read: ${(err as Error).message}`,
    );
  }
  let parts: string[] = [];
  let size = 0;
  let lastRow = 0;
  /** Cells of the header (the first row holding something). */
  let width = 0;
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const n = row.number;
        while (lastRow + 1 < n) {
          parts.push('\n');
          lastRow++;
        }
        lastRow = n;
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
        // a sheet row ends at its last cell holding something (formatted empty cells do not count),
        // so rows are trimmed, then padded to the header's width: a row is only as short or as long
        // as its content, and the reader's field-count check sees the sheet's columns
        while (cells.length && cells.at(-1) === '') cells.pop();
        if (width === 0) width = cells.length;
        else if (cells.length) while (cells.length < width) cells.push('');
        const line = cells.map((c) => csvField(c)).join(',') + '\n';
        parts.push(line);
        size += line.length;
        if (size > 1 << 20) {
          yield Buffer.from(parts.join(''), 'utf8');
          parts = [];
          size = 0;
        }
      }
      break; // first sheet only
    }
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError(
      'XLSX_INVALID',
      `The XLSX file is damaged or truncated and cannot be read (${(err as Error).message}).`,
    );
  }
  if (!sawSheet) throw new EngineError('XLSX_INVALID', 'The XLSX file has no worksheet.');
  if (parts.length) yield Buffer.from(parts.join(''), 'utf8');
}

/** Chunks of a file, 1 MiB at a time. */
export function fileChunks(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 1 << 20 });
}

/**
 * Reads a customer file from disk, CSV or XLSX (decided by content). For XLSX, `offsets` refer to the
 * CSV form produced by `xlsxAsCsv` (pass `csvCopy` to receive it, e.g. for a session folder).
 */
export async function readCustomerFile(
  path: string,
  opts: ReadOptions & { csvCopy?: (chunk: Buffer) => void },
): Promise<TicketFile & { format: 'csv' | 'xlsx' }> {
  const format = await sniffFile(path);
  if (format === 'empty' || format === 'binary') throw formatError(format);
  if (format === 'xlsx') {
    const copy = opts.csvCopy;
    const src = copy
      ? (async function* () {
          for await (const c of xlsxAsCsv(path)) {
            copy(c);
            yield c;
          }
        })()
      : xlsxAsCsv(path);
    return { ...(await readCsvTickets(src, opts)), format };
  }
  return { ...(await readCsvTickets(fileChunks(path), opts)), format };
}
