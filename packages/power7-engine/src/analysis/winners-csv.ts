import { closeSync, openSync, readSync } from 'node:fs';
import { csvCell, csvRow } from '@pa/contracts/csv';
import { CsvTokenizer, recordFields } from '../core/csv';
import { EngineError } from '../core/errors';
import { type MatchType, MATCH_TYPES, PICK } from '../core/model';
import { lookUpWinners, winningCombinations, type TicketLookup } from './ticket-lookup';
import { findWinners, type TicketMasks } from './winners';

/** A look-up of one combination costs about as much as walking this many tickets. */
const LOOKUP_COST = 16;

/** Whether looking up `matchType`'s winning combinations beats walking `count` tickets. */
export function lookupPays(
  pool: number,
  count: number,
  matchType: MatchType | 'all',
): matchType is MatchType {
  return matchType !== 'all' && winningCombinations(pool, matchType) * LOOKUP_COST < count;
}

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
  /** The session's pool size (numbers 1..pool). */
  pool: number;
  /** The tickets grouped by combination, once built: rare match types are looked up, not walked. */
  lookup?: TicketLookup;
}

/** Winning tickets in download order, with each one's number of matches. */
export interface WinnerOrder {
  index: Uint32Array;
  matches: Uint8Array;
}

/**
 * The winners of one draw in the order the CSV lists them: for one match type, file order; for 'all',
 * grouped by match type (7 first), file order inside a group. One walk over the tickets, or for a match
 * type with few winning combinations (5, 6, 7 at 1M–10M tickets) a look-up of each in `lookup`.
 */
export function winnersInOrder(
  source: Pick<WinnersSource, 'masks' | 'tickets' | 'pool' | 'lookup'>,
  numbers: readonly number[],
  matchType: MatchType | 'all',
): WinnerOrder {
  const { lookup, masks } = source;
  if (lookup && lookupPays(source.pool, masks.lo.length, matchType)) {
    const index = lookUpWinners(lookup, source.tickets, source.pool, numbers, matchType);
    return { index, matches: new Uint8Array(index.length).fill(matchType) };
  }
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

/** Chunks handed out (each its own ArrayBuffer, transferred to the event loop): fewer, larger messages. */
const CHUNK = 1 << 18;
/** Winners per segment of a download shared by the winners threads (~250–300 KB of CSV). */
export const SEGMENT = 4096;
const COMMA = 0x2c;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
/** Rows read at once: at most 1 MiB from a window's first row (as the old row reader). */
const WINDOW = 1 << 20;
/**
 * Rows further apart than this are read on their own: copying a gap costs more than a read call
 * (sparse winners, e.g. 6 matches at 10M tickets, read ~20 KB instead of ~55 MB per download).
 */
const GAP = 1 << 14;

/** Bytes of the CSV under construction, handed out in chunks of ≥ CHUNK bytes (each its own buffer). */
class ByteSink {
  /** A chunk and room for the record that fills it. */
  private static readonly SIZE = CHUNK + (CHUNK >> 2);
  buf = Buffer.allocUnsafeSlow(ByteSink.SIZE);
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
    this.buf = Buffer.allocUnsafeSlow(Math.max(ByteSink.SIZE, this.buf.length));
    this.pos = 0;
    return out;
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

/** Byte classes of a record for one delimiter: 0 copied as is, 1 the general path, 2 a delimiter. */
function byteClasses(delimiter: number): Uint8Array {
  const classes = new Uint8Array(256);
  for (let c = 0x80; c < 256; c++) classes[c] = 1;
  classes[QUOTE] = classes[LF] = classes[CR] = 1;
  classes[delimiter] = 2;
  return classes;
}

/**
 * Writes the record `b[from..to)` as `csvCell`s joined by commas at `out[pos..]`, straight from its
 * bytes, when it is plain ASCII without quotes or line breaks and has one field per column; returns
 * the new end, or -1 (nothing counted as written) for the general path. One pass copies the bytes
 * while it checks them; a record that needs changes (a formula-like cell, another delimiter) is then
 * written again cell by cell. Same bytes as the general path by construction (see the tests).
 */
function writePlainRecord(
  out: Buffer,
  pos: number,
  b: Buffer,
  from: number,
  to: number,
  classes: Uint8Array,
  delimiter: number,
  columns: number,
): number {
  let p = pos;
  let fields = 1;
  let start = from;
  let formulaLike = false;
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    out[p++] = c;
    // '#'..DEL, the delimiter aside, is copied as is: one comparison for most bytes (~30 % faster)
    if ((c - 0x23) >>> 0 < 0x5d && c !== delimiter) continue;
    const kind = classes[c]!;
    if (kind === 0) continue;
    if (kind === 1) return -1;
    if (!formulaLike && i > start && triggers(b[start]!)) formulaLike = !plainNumber(b, start, i);
    fields++;
    start = i + 1;
  }
  if (!formulaLike && to > start && triggers(b[start]!)) formulaLike = !plainNumber(b, start, to);
  if (fields !== columns) return -1;
  // nothing to change: the bytes just copied are the record's cells
  if (delimiter === COMMA && !formulaLike) return p;
  p = pos;
  start = from;
  for (let i = from; i <= to; i++) {
    if (i < to && b[i] !== delimiter) continue;
    if (start > from) out[p++] = COMMA;
    const formula = i > start && triggers(b[start]!) && !plainNumber(b, start, i);
    let quoted = formula;
    if (!quoted && delimiter !== COMMA) {
      for (let k = start; k < i; k++) if (b[k] === COMMA) quoted = true;
    }
    if (quoted) out[p++] = QUOTE;
    if (formula) out[p++] = APOSTROPHE;
    for (let k = start; k < i; k++) out[p++] = b[k]!;
    if (quoted) out[p++] = QUOTE;
    start = i + 1;
  }
  return p;
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

/** Writes winners' records with their three added cells (the constant parts worked out once). */
class WinnerWriter {
  private readonly classes: Uint8Array;
  private readonly inDraw = new Uint8Array(65);
  /** `,<payout>\r\n` per match type, as bytes. */
  private readonly tails: Buffer[];

  constructor(
    private readonly source: WinnersSource,
    numbers: readonly number[],
  ) {
    this.classes = byteClasses(source.delimiter);
    this.tails = MATCH_TYPES.map((m) => Buffer.from(`,${source.payouts[m]}\r\n`));
    for (const n of numbers) this.inDraw[n] = 1;
  }

  /** Writes ticket `t`'s record `b[from..to)`, an `m`-match winner, into `sink` (room reserved). */
  write(sink: ByteSink, b: Buffer, from: number, to: number, t: number, m: number): void {
    const { source, inDraw } = this;
    const columns = source.header.length;
    let out = sink.buf;
    let p = writePlainRecord(out, sink.pos, b, from, to, this.classes, source.delimiter, columns);
    if (p < 0) {
      sink.text(generalRecord(b, from, to, source.delimiter, source.header));
      out = sink.buf;
      p = sink.pos;
    }
    out[p++] = COMMA;
    if (m >= 10) out[p++] = 0x30 + Math.floor(m / 10);
    out[p++] = 0x30 + (m % 10);
    out[p++] = COMMA;
    // the matched numbers as `numberListCell` writes them: ascending, space-separated
    const tickets = source.tickets;
    let first = true;
    for (let q = t * PICK; q < t * PICK + PICK; q++) {
      const v = tickets[q]!;
      if (!inDraw[v]) continue;
      if (!first) out[p++] = SPACE;
      if (v >= 10) out[p++] = 0x30 + Math.floor(v / 10);
      out[p++] = 0x30 + (v % 10);
      first = false;
    }
    const tail = this.tails[m - 3]!;
    for (let q = 0; q < tail.length; q++) out[p++] = tail[q]!;
    sink.pos = p;
  }
}

/**
 * Writes the winners CSV of one draw from the stored rows: the original columns, then `match_type`,
 * `matched_numbers` and `payout` — the same bytes as `winnersCsv` of `./winners`, without tokenizing
 * the rows around the winners. Rows are read in windows of ≤ 1 MiB (rows more than 16 KiB apart on
 * their own), with synchronous reads into one reused buffer: this runs on a winners thread, and a
 * page-cache read costs less than the await around an asynchronous one. Memory: one window and one
 * chunk. `close()` closes its file.
 */
export class WinnersCsvWriter {
  private readonly sink = new ByteSink();
  private readonly writer: WinnerWriter;
  private window = Buffer.allocUnsafeSlow(WINDOW);
  private fd: number | null = null;

  constructor(
    private readonly source: WinnersSource,
    numbers: readonly number[],
    private readonly order: WinnerOrder,
  ) {
    this.writer = new WinnerWriter(source, numbers);
  }

  /**
   * The records of winners `from..to` (positions in the order) as chunks (≥ 256 KiB, each its own
   * ArrayBuffer), the header line first if `from` is 0; the last chunk ends the range.
   */
  *range(from: number, to: number): Generator<Buffer> {
    const { source, sink, writer } = this;
    const { offsets, lengths, header } = source;
    if (from === 0) sink.text(csvRow([...header, 'match_type', 'matched_numbers', 'payout']));
    // room for a record whose every cell gets quoted and neutralised, plus the added cells
    const slack = header.length * 3 + 64;
    const { index, matches } = this.order;
    if (to > from) this.fd ??= openSync(source.rowsPath, 'r');
    let i = from;
    while (i < to) {
      // one read for the next rows within 1 MiB of this one and without a large gap (ascending offsets)
      const start = offsets[index[i]!]!;
      let end = start + lengths[index[i]!]!;
      let j = i;
      while (j + 1 < to) {
        const next = index[j + 1]!;
        const at = offsets[next]!;
        const nextEnd = at + lengths[next]!;
        if (at < end || at - end > GAP || nextEnd - start > WINDOW) break;
        j++;
        end = nextEnd;
      }
      if (end - start > this.window.length) this.window = Buffer.allocUnsafeSlow(end - start);
      const window = this.window;
      if (readSync(this.fd!, window, 0, end - start, start) < end - start) {
        throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
      }
      for (let k = i; k <= j; k++) {
        const t = index[k]!;
        const at = offsets[t]! - start;
        const atEnd = at + lengths[t]!;
        const full = sink.reserve((atEnd - at) * 2 + slack);
        if (full) yield full;
        writer.write(sink, window, at, atEnd, t, matches[k]!);
        if (sink.pos >= CHUNK) yield sink.take()!;
      }
      i = j + 1;
    }
    const last = sink.take();
    if (last) yield last;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * The winners CSV of one draw as byte chunks (`WinnersCsvWriter`, all winners in one range). Stops
 * early when `cancelled()` turns true.
 */
export async function* winnersCsvChunks(
  source: WinnersSource,
  numbers: readonly number[],
  order: WinnerOrder,
  cancelled: () => boolean = () => false,
): AsyncGenerator<Buffer> {
  const writer = new WinnersCsvWriter(source, numbers, order);
  try {
    for (const chunk of writer.range(0, order.index.length)) {
      if (cancelled()) return;
      yield chunk;
    }
  } finally {
    writer.close();
  }
}
