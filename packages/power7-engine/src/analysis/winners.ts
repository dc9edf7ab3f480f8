import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { csvCell, csvRow, numberListCell } from '@pa/contracts/csv';
import { CsvTokenizer, fieldText, recordFields } from '../core/csv';
import { EngineError } from '../core/errors';
import { type MatchType, MATCH_TYPES, PICK } from '../core/model';

/** Tickets as bitmasks (number n → bit n-1; bits 0..31 in `lo`, 32..48 in `hi`). */
export interface TicketMasks {
  lo: Uint32Array;
  hi: Uint32Array;
}

/** Builds the bitmask of every ticket (in shared memory if asked, for worker threads). Cost O(T). */
export function ticketMasks(tickets: Uint8Array, count: number, shared = false): TicketMasks {
  const words = () =>
    shared ? new Uint32Array(new SharedArrayBuffer(count * 4)) : new Uint32Array(count);
  const lo = words();
  const hi = words();
  for (let t = 0, p = 0; t < count; t++, p += PICK) {
    let l = 0;
    let h = 0;
    for (let k = 0; k < PICK; k++) {
      const b = tickets[p + k]! - 1;
      if (b < 32) l |= 1 << b;
      else h |= 1 << (b - 32);
    }
    lo[t] = l >>> 0;
    hi[t] = h >>> 0;
  }
  return { lo, hi };
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The two 32-bit halves of a draw's bitmask (number n → bit n-1). */
export function drawMask(numbers: readonly number[]): [number, number] {
  let l = 0;
  let h = 0;
  for (const n of numbers) {
    if (n - 1 < 32) l |= 1 << (n - 1);
    else h |= 1 << (n - 33);
  }
  return [l >>> 0, h >>> 0];
}

/**
 * The tickets with exactly `matchType` matches of the draw (or ≥ 3 with 'all'), ascending ticket index,
 * with each one's match count. Two popcounts per ticket: ~5 ms per 1M tickets.
 */
export function findWinners(
  masks: TicketMasks,
  numbers: readonly number[],
  matchType: MatchType | 'all',
): { index: Uint32Array; matches: Uint8Array } {
  const [dl, dh] = drawMask(numbers);
  const { lo, hi } = masks;
  const n = lo.length;
  const minM = matchType === 'all' ? 3 : matchType;
  const maxM = matchType === 'all' ? 7 : matchType;
  let cap = 1024;
  let index = new Uint32Array(cap);
  let matches = new Uint8Array(cap);
  let k = 0;
  for (let t = 0; t < n; t++) {
    const m = popcount(lo[t]! & dl) + popcount(hi[t]! & dh);
    if (m >= minM && m <= maxM) {
      if (k === cap) {
        cap *= 2;
        const ni = new Uint32Array(cap);
        ni.set(index);
        index = ni;
        const nm = new Uint8Array(cap);
        nm.set(matches);
        matches = nm;
      }
      index[k] = t;
      matches[k++] = m;
    }
  }
  return { index: index.subarray(0, k), matches: matches.subarray(0, k) };
}

/**
 * Winners per number of matches (index 0..7, only 3..7 paid) of one draw, straight from the tickets:
 * one pass of seven table lookups per ticket (~6 ms per 1M tickets; building `ticketMasks` first for
 * a single draw would take three times that).
 */
export function countWinners(
  tickets: Uint8Array,
  count: number,
  numbers: readonly number[],
): number[] {
  const inDraw = new Uint8Array(64);
  for (const n of numbers) inDraw[n] = 1;
  const out = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let t = 0, p = 0; t < count; t++, p += PICK) {
    const m =
      inDraw[tickets[p]!]! +
      inDraw[tickets[p + 1]!]! +
      inDraw[tickets[p + 2]!]! +
      inDraw[tickets[p + 3]!]! +
      inDraw[tickets[p + 4]!]! +
      inDraw[tickets[p + 5]!]! +
      inDraw[tickets[p + 6]!]!;
    out[m]!++;
  }
  return out;
}

/** The numbers of ticket `t` that are in the draw. */
export function matchedNumbers(
  tickets: Uint8Array,
  t: number,
  numbers: readonly number[],
): number[] {
  const out: number[] = [];
  for (let k = 0; k < PICK; k++) {
    const v = tickets[t * PICK + k]!;
    if (numbers.includes(v)) out.push(v);
  }
  return out;
}

/**
 * Reads original rows back from the CSV they were accepted from, by byte offset, in batched positioned
 * reads (one read per ≤ 1 MiB window). `order` must be ascending offsets.
 */
/** Bytes between two wanted rows below which one read takes both (a disk page or two). */
const NEAR_ROW_GAP = 8192;

export class RowReader {
  constructor(
    private readonly path: string,
    private readonly delimiter: number,
    private readonly offsets: Float64Array,
    private readonly lengths: Uint32Array,
  ) {}

  /**
   * Yields chosen fields (`columns`, by index) of every ticket's row, in ticket order, in batches: one sequential
   * pass over the file, records matched to the tickets by their offsets (rejected rows in between are
   * skipped). For the whole file, where `rows` would read window by window.
   */
  async *everyRow(columns: number[]): AsyncGenerator<(string | null)[][]> {
    const fh = await open(this.path, 'r');
    try {
      let t = 0;
      let ready: (string | null)[][] = [];
      const tok = new CsvTokenizer({
        delimiter: this.delimiter,
        maxRecordBytes: 1 << 21,
        onRecord: (rec) => {
          if (t >= this.offsets.length || rec.offset !== this.offsets[t]) return;
          ready.push(columns.map((c) => (c >= 0 && c < rec.fieldCount ? fieldText(rec, c) : null)));
          t++;
        },
      });
      const buf = Buffer.alloc(1 << 20);
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) break;
        // the tokenizer keeps what it needs of a chunk: each read gets a buffer of its own
        tok.push(Buffer.from(buf.subarray(0, bytesRead)));
        // a batch per read: one await per MiB, not per row
        if (ready.length > 0) yield ready;
        ready = [];
      }
      tok.end();
      if (ready.length > 0) yield ready;
      if (t !== this.offsets.length) {
        throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
      }
    } finally {
      await fh.close();
    }
  }

  /** Yields the fields of rows `indexes` (ticket indexes, ascending) in that order. */
  async *rows(indexes: ArrayLike<number>): AsyncGenerator<string[]> {
    if (indexes.length === 0) return;
    const fh = await open(this.path, 'r');
    try {
      for (const w of this.windows(indexes)) {
        const buf = Buffer.alloc(w.end - w.start);
        await fh.read(buf, 0, buf.length, w.start);
        yield* this.parse(buf, indexes, w);
      }
    } finally {
      await fh.close();
    }
  }

  /**
   * The fields of rows `indexes` (ticket indexes, ascending), in that order, with synchronous reads:
   * for a winners thread, where a page-cache read costs less than the await around an asynchronous
   * one (a page of scattered winners is a read per row).
   */
  rowsSync(indexes: ArrayLike<number>): string[][] {
    const out: string[][] = [];
    if (indexes.length === 0) return out;
    const fd = openSync(this.path, 'r');
    try {
      for (const w of this.windows(indexes)) {
        const buf = Buffer.alloc(w.end - w.start);
        if (readSync(fd, buf, 0, buf.length, w.start) < buf.length) {
          throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
        }
        out.push(...this.parse(buf, indexes, w));
      }
    } finally {
      closeSync(fd);
    }
    return out;
  }

  /**
   * The reads for rows `indexes`: a window takes the next row when it lies close after this one (so
   * a page of scattered winners reads a few hundred bytes a row, not every row between them), up to
   * 1 MiB; rows `i..j` of `indexes` in bytes [start, end).
   */
  private *windows(indexes: ArrayLike<number>): Generator<RowWindow> {
    let i = 0;
    while (i < indexes.length) {
      const first = indexes[i]!;
      const start = this.offsets[first]!;
      let j = i;
      let end = start + this.lengths[first]!;
      while (
        j + 1 < indexes.length &&
        this.offsets[indexes[j + 1]!]! - end <= NEAR_ROW_GAP &&
        this.offsets[indexes[j + 1]!]! + this.lengths[indexes[j + 1]!]! - start <= 1 << 20
      ) {
        j++;
        end = this.offsets[indexes[j]!]! + this.lengths[indexes[j]!]!;
      }
      yield { i, j, start, end };
      i = j + 1;
    }
  }

  /** The fields of rows `w.i..w.j` of `indexes` from their window's bytes `buf`. */
  private parse(buf: Buffer, indexes: ArrayLike<number>, w: RowWindow): string[][] {
    const wanted = new Map<number, number>();
    for (let k = w.i; k <= w.j; k++) wanted.set(this.offsets[indexes[k]!]! - w.start, k);
    const found = new Map<number, string[]>();
    const tok = new CsvTokenizer({
      delimiter: this.delimiter,
      maxRecordBytes: 1 << 21,
      onRecord: (rec) => {
        const k = wanted.get(rec.offset);
        if (k !== undefined) found.set(k, recordFields(rec));
      },
    });
    // start exactly at the record: the window holds whole records only
    tok.push(buf);
    tok.end();
    const out: string[][] = [];
    for (let k = w.i; k <= w.j; k++) {
      const f = found.get(k);
      if (!f) throw new EngineError('FILE_UNREADABLE', 'The stored customer rows are damaged.');
      out.push(f);
    }
    return out;
  }
}

interface RowWindow {
  i: number;
  j: number;
  start: number;
  end: number;
}

export interface WinnersCsvInput {
  header: string[];
  tickets: Uint8Array;
  masks: TicketMasks;
  rows: RowReader;
  numbers: number[];
  matchType: MatchType | 'all';
  /** Payout per match type in currency units. */
  payouts: Readonly<Record<MatchType, number>>;
}

/**
 * The winners CSV of one draw: the original columns, then `match_type`, `matched_numbers` (ascending,
 * space-separated: `3-8-12` would become a date in a spreadsheet) and `payout`. Yields text chunks of ~64 KiB; for 'all' the rows are grouped by match type
 * (7 first), file order inside a group. Cells a spreadsheet would run as a formula are neutralised
 * (`csvCell` of `@pa/contracts/csv`).
 */
export async function* winnersCsv(input: WinnersCsvInput): AsyncGenerator<string> {
  const header = [...input.header, 'match_type', 'matched_numbers', 'payout'];
  // csvRow / csvCell neutralise formula-like customer cells (`=HYPERLINK(…)` → `"'=HYPERLINK(…)"`)
  let out = csvRow(header);
  const types: MatchType[] =
    input.matchType === 'all' ? [...MATCH_TYPES].reverse() : [input.matchType];
  for (const m of types) {
    const { index } = findWinners(input.masks, input.numbers, m);
    let k = 0;
    for await (const fields of input.rows.rows(index)) {
      const t = index[k++]!;
      const cells = input.header.map((_, c) => csvCell(fields[c] ?? ''));
      cells.push(
        String(m),
        numberListCell(matchedNumbers(input.tickets, t, input.numbers)),
        String(input.payouts[m]),
      );
      out += cells.join(',') + '\r\n';
      if (out.length > 65536) {
        yield out;
        out = '';
      }
    }
  }
  if (out) yield out;
}
