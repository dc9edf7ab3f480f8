import { EngineError } from './errors';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * One parsed record, valid only during the `onRecord` call (its arrays are reused).
 * Field i is the bytes `buf[start[i] .. end[i])`; when `quoted[i]` is 1 the field was quoted and any
 * `""` inside stands for one `"`.
 */
export interface CsvRecord {
  /** 1-based physical line on which the record starts. */
  line: number;
  /** Absolute byte offset of the record's first byte in the stream (BOM included in the count). */
  offset: number;
  /** Bytes of the record, line terminator excluded. */
  length: number;
  fieldCount: number;
  buf: Buffer;
  /** Byte offset of the record's first byte inside `buf`. */
  bufStart: number;
  start: Int32Array;
  end: Int32Array;
  quoted: Uint8Array;
  /** A closing quote was followed by something other than a delimiter or line end. */
  malformed: boolean;
}

/** Decodes field `i` of a record as UTF-8 text (quotes unescaped). */
export function fieldText(rec: CsvRecord, i: number): string {
  if (i >= rec.fieldCount) return '';
  const s = rec.buf.toString('utf8', rec.start[i], rec.end[i]);
  return rec.quoted[i] ? s.replaceAll('""', '"') : s;
}

/** All fields of a record as text. */
export function recordFields(rec: CsvRecord): string[] {
  const out: string[] = [];
  for (let i = 0; i < rec.fieldCount; i++) out.push(fieldText(rec, i));
  return out;
}

/** The record's raw text (for error reports), cut to `max` characters. */
export function recordRaw(rec: CsvRecord, max = 200): string {
  const s = rec.buf.toString('utf8', rec.bufStart, rec.bufStart + Math.min(rec.length, max * 4));
  return s.length > max ? s.slice(0, max) : s;
}

/**
 * A shortcut for simple records: called with a record that holds no quote and ends with a line end
 * inside the current data — its bytes `buf[start .. end)` (line end excluded), its line number and
 * absolute offset. Returns true when it has fully dealt with the record (then `onRecord` is not
 * called for it), false to have it tokenized and passed to `onRecord` as usual. Must not keep `buf`.
 */
export type SimpleRecordHook = (
  buf: Buffer,
  start: number,
  end: number,
  line: number,
  offset: number,
) => boolean;

export interface CsvTokenizerOptions {
  /** Field delimiter byte (`,` `;` or tab). */
  delimiter: number;
  /** A record longer than this is an error instead of unbounded memory. Default 1 MiB. */
  maxRecordBytes?: number;
  onRecord: (rec: CsvRecord) => void;
  /**
   * Where the bytes start inside the file, for a reader of one byte range (parallel reading): the
   * range begins right after a line end, so no BOM is looked for, and `offset` and `line` count from
   * here (line 1 is the range's first line).
   */
  startOffset?: number;
}

/**
 * Streaming RFC 4180 tokenizer over bytes: quoted fields with `""` escapes, delimiters and newlines
 * inside quotes, LF or CRLF line ends, a UTF-8 BOM skipped, empty lines skipped (but counted for line
 * numbers). A quote inside an unquoted field is kept as text. Allocation-free per record except when
 * a record straddles two chunks (its bytes are carried over). ~50 MB/s-class and up: a 1M-row 50 MB file
 * tokenizes in well under a second.
 */
export class CsvTokenizer {
  private readonly delim: number;
  private readonly maxRecord: number;
  private readonly onRecord: (rec: CsvRecord) => void;
  private pending: Buffer | null = null;
  /** Absolute offset of `pending[0]` (or of the next chunk when nothing is pending). */
  private base = 0;
  private line = 1;
  private first = true;
  private cap = 64;
  private readonly rec: CsvRecord;
  /** See `SimpleRecordHook`; set or cleared at any time (e.g. once a header has been read). */
  simple: SimpleRecordHook | null = null;

  constructor(opts: CsvTokenizerOptions) {
    this.delim = opts.delimiter;
    this.maxRecord = opts.maxRecordBytes ?? 1 << 20;
    this.onRecord = opts.onRecord;
    if (opts.startOffset !== undefined) {
      this.base = opts.startOffset;
      this.first = false;
    }
    this.rec = {
      line: 0,
      offset: 0,
      length: 0,
      fieldCount: 0,
      buf: Buffer.alloc(0),
      bufStart: 0,
      start: new Int32Array(this.cap),
      end: new Int32Array(this.cap),
      quoted: new Uint8Array(this.cap),
      malformed: false,
    };
  }

  /** Physical lines passed so far (empty ones and line breaks inside quotes included). */
  get linesRead(): number {
    return this.line - 1;
  }

  /** Feeds the next chunk of bytes. */
  push(chunk: Uint8Array): void {
    let data = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending) {
      data = Buffer.concat([this.pending, data]);
      this.pending = null;
    }
    let p = 0;
    if (this.first) {
      if (data.length < 3 && data.length > 0 && data[0] === 0xef) {
        this.pending = Buffer.from(data);
        return;
      }
      this.first = false;
      if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) p = 3;
    }
    this.run(data, p, false);
  }

  /** Ends the stream: a last record without a line end is emitted; an open quote is an error. */
  end(): void {
    if (this.pending) {
      const data = this.pending;
      this.pending = null;
      let p = 0;
      if (this.first) {
        this.first = false;
        if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) p = 3;
      }
      this.run(data, p, true);
    }
  }

  private grow(): void {
    this.cap *= 2;
    const r = this.rec;
    const s = new Int32Array(this.cap);
    s.set(r.start);
    const e = new Int32Array(this.cap);
    e.set(r.end);
    const q = new Uint8Array(this.cap);
    q.set(r.quoted);
    r.start = s;
    r.end = e;
    r.quoted = q;
  }

  // eslint-disable-next-line max-lines-per-function -- measured kernel: the tokenizer's loop over every byte of an upload (~0.4 s per 1M rows); a record's scan split out would return its six loop locals (i, fields, innerLines, malformed, complete, recEnd) through fields or an object on every record
  private run(data: Buffer, p: number, final: boolean): void {
    const n = data.length;
    const delim = this.delim;
    const rec = this.rec;
    rec.buf = data;
    let nextQuote = -2; // position of the next quote at or after p (-1: none), -2: not looked up
    while (p < n) {
      const simple = this.simple;
      if (simple !== null) {
        if (nextQuote !== -1 && nextQuote < p) nextQuote = data.indexOf(QUOTE, p);
        const lf = data.indexOf(LF, p);
        if (lf !== -1 && (nextQuote === -1 || lf < nextQuote)) {
          const end = lf > p && data[lf - 1] === CR ? lf - 1 : lf;
          if (
            end > p &&
            end - p <= this.maxRecord &&
            simple(data, p, end, this.line, this.base + p)
          ) {
            this.line++;
            p = lf + 1;
            continue;
          }
        }
      }
      // one record starting at p
      const recStart = p;
      let i = p;
      let fields = 0;
      let innerLines = 0;
      let malformed = false;
      let complete = false;
      let recEnd = -1;
      for (;;) {
        if (fields === this.cap) this.grow();
        if (i < n && data[i] === QUOTE) {
          // quoted field
          i++;
          const fs = i;
          let fe = -1;
          for (;;) {
            const j = data.indexOf(QUOTE, i);
            if (j === -1) {
              i = n;
              break;
            }
            if (j + 1 < n && data[j + 1] === QUOTE) {
              i = j + 2;
              continue;
            }
            if (j + 1 >= n && !final) {
              i = n;
              break;
            }
            fe = j;
            i = j + 1;
            break;
          }
          if (fe === -1) {
            if (final) {
              throw new EngineError(
                'NOT_A_TABLE',
                `Line ${this.line}: a quoted field is opened but never closed.`,
              );
            }
            break; // need more data
          }
          for (let k = fs; k < fe; k++) if (data[k] === LF) innerLines++;
          rec.start[fields] = fs;
          rec.end[fields] = fe;
          rec.quoted[fields] = 1;
          fields++;
          // after the closing quote: delimiter, line end or end of data
          if (
            i < n &&
            data[i] !== delim &&
            data[i] !== LF &&
            !(data[i] === CR && (i + 1 >= n || data[i + 1] === LF))
          ) {
            malformed = true;
            while (i < n && data[i] !== delim && data[i] !== LF) i++;
          }
          if (i < n && data[i] === CR && i + 1 < n && data[i + 1] === LF) i++;
          else if (i < n && data[i] === CR && i + 1 >= n && !final) break;
        } else {
          const fs = i;
          while (i < n) {
            const c = data[i];
            if (c === delim || c === LF) break;
            i++;
          }
          let fe = i;
          if (i < n && data[i] === LF && fe > fs && data[fe - 1] === CR) fe--;
          else if (i >= n && final && fe > fs && data[fe - 1] === CR) fe--;
          rec.start[fields] = fs;
          rec.end[fields] = fe;
          rec.quoted[fields] = 0;
          fields++;
          if (i >= n && !final) break;
        }
        if (i >= n) {
          // final: the record ends with the data
          complete = true;
          recEnd = n;
          if (recEnd > recStart && data[recEnd - 1] === CR && rec.quoted[fields - 1] === 1)
            recEnd--;
          break;
        }
        if (data[i] === delim) {
          i++;
          if (i >= n && !final) break;
          continue;
        }
        // data[i] is LF (a CR before it was skipped)
        recEnd = data[i - 1] === CR ? i - 1 : i;
        i++;
        complete = true;
        break;
      }
      if (!complete) {
        if (n - recStart > this.maxRecord) {
          throw new EngineError(
            'LINE_TOO_LONG',
            `Line ${this.line} is longer than ${Math.round(this.maxRecord / 1024)} KiB; this does not look like a customer file.`,
          );
        }
        this.pending = Buffer.from(data.subarray(recStart));
        this.base += recStart;
        return;
      }
      const length = recEnd - recStart;
      if (length > this.maxRecord) {
        throw new EngineError(
          'LINE_TOO_LONG',
          `Line ${this.line} is longer than ${Math.round(this.maxRecord / 1024)} KiB; this does not look like a customer file.`,
        );
      }
      if (!(fields === 1 && length === 0)) {
        rec.line = this.line;
        rec.offset = this.base + recStart;
        rec.length = length;
        rec.fieldCount = fields;
        rec.bufStart = recStart;
        rec.malformed = malformed;
        this.onRecord(rec);
      }
      this.line += 1 + innerLines;
      p = i;
    }
    this.base += n;
  }
}

/** The delimiter rule is shared with the browser's preview. */
export { detectDelimiter } from '@pa/contracts/power7-file';

/**
 * Quotes a field when it holds a delimiter, quote or line break (RFC 4180), text unchanged otherwise:
 * for the engine's own stored CSV (an XLSX's rows as `rows.csv`). A CSV that people open goes through
 * `csvCell` / `csvRow` of `@pa/contracts/csv`, which also neutralises formulas.
 */
export function csvField(s: string, delimiter = ','): string {
  if (s.includes('"') || s.includes(delimiter) || s.includes('\n') || s.includes('\r')) {
    return `"${s.replaceAll('"', '""')}"`;
  }
  return s;
}
