import { open } from 'node:fs/promises';
import { csvCell, csvRow } from '@pa/contracts/csv';
import { CsvTokenizer, recordFields } from '../core/csv';
import { EngineError } from '../core/errors';
import { type MatchType, MATCH_TYPES, PICK } from '../core/model';
import { findWinners, type TicketMasks } from './winners';

/**
 * What the winners downloads read of an open session. The arrays are SharedArrayBuffer-backed in a
 * service, so worker threads read them without a copy.
 */
export interface WinnersSource {
  /** Identifies the session in a worker's cache (its folder). */
  key: string;
  tickets: Uint8Array;
  masks: TicketMasks;
  /** Byte offset and length (line end excluded) of each ticket's row in `rowsPath`. */
  offsets: Float64Array;
  lengths: Uint32Array;
  rowsPath: string;
  delimiter: number;
  header: string[];
  /** Payout per match type in currency units. */
  payouts: Readonly<Record<MatchType, number>>;
}

/** Winning tickets in download order, with each one's number of matches. */
export interface WinnerOrder {
  index: Uint32Array;
  matches: Uint8Array;
}

/**
 * The winners of one draw in the order the CSV lists them: for one match type, file order; for 'all',
 * grouped by match type (7 first), file order inside a group. One walk over the tickets either way.
 */
export function winnersInOrder(
  masks: TicketMasks,
  numbers: readonly number[],
  matchType: MatchType | 'all',
): WinnerOrder {
  const found = findWinners(masks, numbers, matchType);
  if (matchType !== 'all') return found;
  const start = new Uint32Array(9);
  for (const m of found.matches) start[m]!++;
  // prefix sums with 7 first: group m starts after every group above it
  let at = 0;
  for (let m = 7; m >= 3; m--) {
    const n = start[m]!;
    start[m] = at;
    at += n;
  }
  const index = new Uint32Array(found.index.length);
  const matches = new Uint8Array(found.index.length);
  for (let k = 0; k < found.index.length; k++) {
    const m = found.matches[k]!;
    const to = start[m]!++;
    index[to] = found.index[k]!;
    matches[to] = m;
  }
  return { index, matches };
}

const CHUNK = 1 << 16;
const COMMA = 0x2c;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
/** Windows of rows read at once (as the old row reader: ≤ 1 MiB from a window's first row). */
const WINDOW = 1 << 20;

/** Bytes of the CSV under construction, handed out in chunks of ≥ 64 KiB (each its own buffer). */
class ByteSink {
  buf = Buffer.allocUnsafeSlow(CHUNK * 2);
  pos = 0;
  /** Makes room for `n` more bytes; returns a full chunk to send first, if any. */
  reserve(n: number): Buffer | null {
    if (this.pos + n <= this.buf.length) return null;
    const full = this.take();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafeSlow(n + CHUNK);
    return full;
  }
  take(): Buffer | null {
    if (this.pos === 0) return null;
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafeSlow(Math.max(CHUNK * 2, this.buf.length));
    this.pos = 0;
    return out;
  }
  byte(b: number): void {
    this.buf[this.pos++] = b;
  }
  copy(src: Uint8Array, from: number, to: number): void {
    const buf = this.buf;
    let pos = this.pos;
    // short runs by hand: a subarray per field would be most of the garbage
    if (to - from < 64) for (let i = from; i < to; i++) buf[pos++] = src[i]!;
    else {
      buf.set(src.subarray(from, to), pos);
      pos += to - from;
    }
    this.pos = pos;
  }
  /** A number 0..99 in decimal. */
  small(n: number): void {
    if (n >= 10) this.buf[this.pos++] = 0x30 + Math.floor(n / 10);
    this.buf[this.pos++] = 0x30 + (n % 10);
  }
  text(s: string): void {
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }
}

/** `/^[+-]?[0-9]+(\.[0-9]+)?$/` over bytes `b[from..to)`. */
function plainNumber(b: Uint8Array, from: number, to: number): boolean {
  let i = from;
  if (b[i] === 0x2b || b[i] === 0x2d) i++;
  let digits = 0;
  while (i < to && b[i]! >= 0x30 && b[i]! <= 0x39) {
    i++;
    digits++;
  }
  if (digits === 0) return false;
  if (i === to) return true;
  if (b[i] !== 0x2e) return false;
  i++;
  let frac = 0;
  while (i < to && b[i]! >= 0x30 && b[i]! <= 0x39) {
    i++;
    frac++;
  }
  return frac > 0 && i === to;
}

/** Whether `c` starts a formula for a spreadsheet (`csvCell`'s FORMULA_START, CR aside). */
const triggers = (c: number) => c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === TAB;

/**
 * Writes the record `b[from..to)` as `csvCell`s joined by commas, straight from its bytes, when it is
 * plain ASCII without quotes or line breaks and has one field per column; false (nothing written)
 * otherwise, for the general path. Same bytes as the general path by construction (see the tests).
 */
function writePlainRecord(
  sink: ByteSink,
  b: Buffer,
  from: number,
  to: number,
  delimiter: number,
  columns: number,
): boolean {
  // one pass: the record's checks, its width, and whether a cell starts like a formula
  let fields = 1;
  let start = from;
  let formulaLike = false;
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c >= 0x80 || c === QUOTE || c === LF || c === CR) return false;
    if (c !== delimiter) continue;
    if (!formulaLike && i > start && triggers(b[start]!)) formulaLike = !plainNumber(b, start, i);
    fields++;
    start = i + 1;
  }
  if (!formulaLike && to > start && triggers(b[start]!)) formulaLike = !plainNumber(b, start, to);
  if (fields !== columns) return false;
  if (delimiter === COMMA && !formulaLike) {
    // nothing to change: the record's bytes as they are (a native copy)
    sink.pos += b.copy(sink.buf, sink.pos, from, to);
    return true;
  }
  start = from;
  for (let i = from; i <= to; i++) {
    if (i < to && b[i] !== delimiter) continue;
    if (start > from) sink.byte(COMMA);
    const first = b[start];
    const formula = i > start && triggers(first!) && !plainNumber(b, start, i);
    let quoted = formula;
    if (!quoted && delimiter !== COMMA) {
      for (let k = start; k < i; k++) if (b[k] === COMMA) quoted = true;
    }
    if (quoted) sink.byte(QUOTE);
    if (formula) sink.byte(APOSTROPHE);
    sink.copy(b, start, i);
    if (quoted) sink.byte(QUOTE);
    start = i + 1;
  }
  return true;
}

/** The record `b[from..to)` as `csvCell`s, through the tokenizer (quotes, non-ASCII, odd widths). */
function generalRecord(
  b: Buffer,
  from: number,
  to: number,
  delimiter: number,
  header: string[],
): string {
  let fields: string[] | null = null;
  const tok = new CsvTokenizer({
    delimiter,
    maxRecordBytes: 1 << 21,
    onRecord: (rec) => (fields ??= recordFields(rec)),
  });
  tok.push(b.subarray(from, to));
  tok.end();
  if (!fields) throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
  const row: string[] = fields;
  return header.map((_, c) => csvCell(row[c] ?? '')).join(',');
}

/**
 * The winners CSV of one draw as byte chunks (≥ 64 KiB, each its own ArrayBuffer): the original
 * columns, then `match_type`, `matched_numbers` and `payout` — the same bytes as `winnersCsv` of
 * `./winners`, without tokenizing the rows around the winners. Rows are read in ≤ 1 MiB windows; memory
 * stays one window and one chunk. Stops early when `cancelled()` turns true.
 */
export async function* winnersCsvChunks(
  source: WinnersSource,
  numbers: readonly number[],
  order: WinnerOrder,
  cancelled: () => boolean = () => false,
): AsyncGenerator<Buffer> {
  const { tickets, offsets, lengths, delimiter, header, payouts } = source;
  const sink = new ByteSink();
  sink.text(csvRow([...header, 'match_type', 'matched_numbers', 'payout']));
  const inDraw = new Uint8Array(65);
  for (const n of numbers) inDraw[n] = 1;
  // `,<payout>\r\n` per match type, as bytes
  const after = MATCH_TYPES.map((m) => Buffer.from(`,${payouts[m]}\r\n`));
  const { index, matches } = order;
  let window = Buffer.allocUnsafeSlow(WINDOW);
  const fh = index.length > 0 ? await open(source.rowsPath, 'r') : null;
  try {
    let i = 0;
    while (i < index.length && !cancelled()) {
      // one positioned read for the rows within 1 MiB of this one (ascending offsets)
      const start = offsets[index[i]!]!;
      let j = i;
      let end = start + lengths[index[i]!]!;
      while (j + 1 < index.length) {
        const next = index[j + 1]!;
        const nextEnd = offsets[next]! + lengths[next]!;
        if (offsets[next]! < start || nextEnd - start > WINDOW) break;
        j++;
        end = Math.max(end, nextEnd);
      }
      if (end - start > window.length) window = Buffer.allocUnsafeSlow(end - start);
      const { bytesRead } = await fh!.read(window, 0, end - start, start);
      if (bytesRead < end - start) {
        throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
      }
      for (let k = i; k <= j; k++) {
        const t = index[k]!;
        const m = matches[k]! as MatchType;
        const from = offsets[t]! - start;
        const to = from + lengths[t]!;
        const full = sink.reserve((to - from) * 2 + header.length * 3 + 64);
        if (full) yield full;
        if (!writePlainRecord(sink, window, from, to, delimiter, header.length)) {
          sink.text(generalRecord(window, from, to, delimiter, header));
        }
        sink.byte(COMMA);
        sink.small(m);
        sink.byte(COMMA);
        // the matched numbers as `numberListCell` writes them: ascending, space-separated
        let first = true;
        for (let p = t * PICK; p < t * PICK + PICK; p++) {
          const v = tickets[p]!;
          if (!inDraw[v]) continue;
          if (!first) sink.byte(SPACE);
          sink.small(v);
          first = false;
        }
        const tail = after[m - 3]!;
        sink.copy(tail, 0, tail.length);
        if (sink.pos >= CHUNK) yield sink.take()!;
      }
      i = j + 1;
    }
  } finally {
    await fh?.close();
  }
  const last = sink.take();
  if (last && !cancelled()) yield last;
}
