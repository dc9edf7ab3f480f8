import { PICK } from '../core/model';

const LF = 0x0a;
const CR = 0x0d;

/** What the plain-row reader needs of the file's header (`TicketReader`'s seven number columns). */
export interface PlainShape {
  delimiter: number;
  /** Field index → which of the seven numbers it holds (0..6), −1 for any other field. */
  role: Int8Array;
  /** The last field that holds a number. */
  last: number;
  /** Fields of the header, a trailing empty one not counted. */
  headerFields: number;
  pool: number;
  /** Longer lines go to the tokenizer (which rejects them). */
  maxRecord: number;
}

/** The shape of rows with the seven numbers in fields `indexes` (see `PlainShape`). */
export function plainShape(
  indexes: readonly number[],
  delimiter: number,
  headerFields: number,
  pool: number,
  maxRecord: number,
): PlainShape {
  const role = new Int8Array(Math.max(...indexes) + 1).fill(-1);
  indexes.forEach((f, k) => (role[f] = k));
  return { delimiter, role, last: role.length - 1, headerFields, pool, maxRecord };
}

/** Where `readPlainRows` stopped, and what it read (one object per reader, fields of one shape). */
export class PlainCursor {
  /** The first byte not consumed: the start of a line it did not take, or the end of the bytes. */
  p = 0;
  /** Tickets written so far, 7 numbers each. */
  count = 0;
  /** Lines taken so far. */
  lines = 0;
  /** The bytes from `p` on hold no line end (an unfinished last line). */
  unfinished = false;
}

/**
 * Reads plain rows of a CSV that holds no quote, from `at.p` up to `n`, into `tickets` (room up to
 * `cap` tickets): the tokenizer's line search (one native `indexOf` per line) and the row reader's
 * walk (`TicketReader.simpleRow`) in one pass over each line's bytes. Takes exactly the lines that
 * `simpleRow` takes, with the same numbers; it stops at the first line it does not take (for the
 * tokenizer: an empty, CR-only, long or unusual line, or one `simpleRow` would refuse), at a line
 * without a line end (`unfinished`), or when `cap` is reached. One function on purpose (a measured
 * kernel, every byte of a range): a line's fields split out would hand their position and number
 * back through an object per line.
 */
export function readPlainRows(
  buf: Uint8Array,
  n: number,
  s: PlainShape,
  tickets: Uint8Array,
  cap: number,
  at: PlainCursor,
  vals: Int32Array,
): void {
  const { delimiter: delim, role, last, headerFields: expected, pool, maxRecord } = s;
  // up to the last line end: every loop below stops at a line end at the latest (no bound checks)
  const whole = n > 0 ? buf.lastIndexOf(LF, n - 1) + 1 : 0;
  let p = at.p;
  let count = at.count;
  let lines = 0;
  rows: while (p < whole && count < cap) {
    let i = p;
    let field = 0;
    for (;;) {
      const k = field <= last ? role[field]! : -1;
      if (k >= 0) {
        let v = 0;
        const from = i;
        for (;;) {
          const d = buf[i]! - 0x30;
          if (d >>> 0 > 9) break;
          v = v * 10 + d;
          i++;
        }
        // digits only, not empty, 1..pool; then a delimiter or the line's end
        if (i === from || i - from > 2 || v < 1 || v > pool) break rows;
        const b = buf[i]!;
        if (b !== delim && b !== LF && b !== CR) break rows;
        vals[k] = v;
      } else {
        for (;;) {
          const b = buf[i]!;
          if (b === delim || b === LF) break;
          i++;
        }
      }
      if (field === last) break;
      // fewer fields than the number columns need (a CR here: the tokenizer decides)
      if (buf[i] !== delim) break rows;
      i++;
      field++;
    }
    // the rest of the line: its delimiters counted up to the line end
    let fields = field + 1;
    let lf = i;
    for (;;) {
      const b = buf[lf]!;
      if (b === LF) break;
      if (b === delim) fields++;
      lf++;
    }
    const end = buf[lf - 1] === CR ? lf - 1 : lf;
    // a CR that does not end the line, or one right after the last number: the tokenizer decides
    if (end < i || end - p > maxRecord) break;
    if (buf[i] === CR && i !== end) break;
    // the row's field count must be the header's, one trailing empty field tolerated
    if (fields !== expected && !(fields === expected + 1 && buf[end - 1] === delim)) break;
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
    for (let a = 1; a < PICK; a++) if (vals[a] === vals[a - 1]) break rows;
    const t = count * PICK;
    for (let a = 0; a < PICK; a++) tickets[t + a] = vals[a]!;
    count++;
    lines++;
    p = lf + 1;
  }
  at.p = p;
  at.count = count;
  at.lines += lines;
  at.unfinished = p >= whole && whole < n;
}
