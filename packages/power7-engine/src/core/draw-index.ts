import type { CountColumn } from './scan';
import {
  readQuery,
  Unranker,
  type FilterQuery,
  type QueryContext,
  type RowFilter,
} from './draw-query';
import { BINOM, PICK } from './model';

/**
 * The qualifying draws laid out for filters (ADR 025): every column in one order, by total payout
 * descending and, among equal totals, by combo ascending (the default sort's order), so
 * - a payout range is a run of positions, found by binary search;
 * - a number that must (not) be drawn is one bitset per number over the positions: counting the draws
 *   of a payout range with such numbers ANDs words, no draw visited;
 * - the default sort (and its reverse) reads its page straight off the positions;
 * - the other sorts and the winners ranges scan the run's columns (`scanIndex`), with each draw's
 *   combo order as a number (`lexKey`) instead of unranking it for ties.
 * About 4 + 4 + (1..4)·5 + P/8 bytes a qualifying draw (≈ 45 MB at 3.4M draws, P = 35). Answers are
 * those of `queryDraws` (the property test holds them side by side).
 */
export interface DrawIndex {
  /** Qualifying draws. */
  n: number;
  /** Colex rank of the draw at each position. */
  rank: Uint32Array;
  /** Winners per match type 3..7 at each position. */
  counts: CountColumn[];
  /** The combo's place in lexicographic order (ascending with `formatCombo`'s order), per position. */
  lexKey: Uint32Array;
  /** 32-bit words per number's bitset. */
  words: number;
  /** Number b (0-based) drawn at position p: bit p & 31 of `bits[b · words + (p >> 5)]`. */
  bits: Uint32Array;
}

/**
 * Draws above which no index is made: building one takes ~60 B a draw for a moment and ~20 B a draw
 * while the session is open; such sessions (P ≥ 36 with most draws qualifying) keep the scan.
 */
const MAX_INDEXED_DRAWS = 8_000_000;

/** Memory for the index's columns: shared memory lets a worker thread read them without a copy. */
type Allocate = (bytes: number) => ArrayBufferLike;

export const words32 = (n: number) => Math.ceil(n / 32);

/**
 * Builds the index of `ctx.table` (one pass to key every draw, a radix sort by total then combo, one
 * pass to place columns and bits: 3–5 s at 3.4–4.9M draws measured on the shared 2-core machine at
 * load 5–7). Null when the table is too large or a total is not a whole number of units (then
 * `queryDraws` answers).
 */
export function buildDrawIndex(
  ctx: QueryContext,
  allocate: Allocate = (bytes) => new ArrayBuffer(bytes),
): DrawIndex | null {
  const n = ctx.table.length;
  if (n > MAX_INDEXED_DRAWS) return null;
  const { pool } = ctx;
  // the table's columns flat, by row (the analysis hands them over in chunks)
  const rows = flatten(ctx.table);
  const totals = new Float64Array(n);
  const lexKeys = new Uint32Array(n);
  const maskLow = new Int32Array(n);
  const maskHigh = new Int32Array(n);
  const maxTotal = keyDraws(ctx, rows, totals, lexKeys, maskLow, maskHigh);
  if (maxTotal < 0) return null;
  // rows by total descending, then combo ascending: stable LSD radix passes of 11 bits, combo first
  let order = new Uint32Array(n);
  let spare = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const digits = new Uint16Array(n);
  for (let shift = 0; shift < 30; shift += RADIX_BITS) {
    for (let row = 0; row < n; row++) digits[row] = (lexKeys[row]! >>> shift) & RADIX_MASK;
    radixPass(order, spare, digits);
    [order, spare] = [spare, order];
  }
  for (let scale = 1; scale <= maxTotal; scale *= RADIX) {
    for (let row = 0; row < n; row++)
      digits[row] = Math.floor((maxTotal - totals[row]!) / scale) % RADIX;
    radixPass(order, spare, digits);
    [order, spare] = [spare, order];
  }

  const u32 = (length: number) => new Uint32Array(allocate(length * 4), 0, length);
  const rank = u32(n);
  const lexKey = u32(n);
  const words = words32(n);
  const bits = u32(pool * words);
  // each match type's column as wide as its widest chunk's
  const counts = rows.counts.map((c) => {
    const buffer = allocate(n * c.BYTES_PER_ELEMENT);
    return c.BYTES_PER_ELEMENT === 1
      ? new Uint8Array(buffer, 0, n)
      : c.BYTES_PER_ELEMENT === 2
        ? new Uint16Array(buffer, 0, n)
        : new Uint32Array(buffer, 0, n);
  });
  // gathered in position order: the writes (and each number's bits) go forwards
  gather(order, rows.ranks, rank);
  gather(order, lexKeys, lexKey);
  for (let k = 0; k < 5; k++) gather(order, rows.counts[k]!, counts[k]!);
  placeBits(order, maskLow, maskHigh, bits, words);
  return { n, rank, counts, lexKey, words, bits };
}

const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;
const RADIX_MASK = RADIX - 1;

/** The table's ranks and count columns, each in one array (the chunks' own when there is one). */
function flatten(table: QueryContext['table']): { ranks: Uint32Array; counts: CountColumn[] } {
  const [one] = table.chunks;
  if (table.chunks.length === 1 && one) return { ranks: one.ranks, counts: one.counts };
  const ranks = new Uint32Array(table.length);
  const counts = [0, 1, 2, 3, 4].map((k) => {
    const width = Math.max(1, ...table.chunks.map((ch) => ch.counts[k]!.BYTES_PER_ELEMENT));
    return width === 1
      ? new Uint8Array(table.length)
      : width === 2
        ? new Uint16Array(table.length)
        : new Uint32Array(table.length);
  });
  let at = 0;
  for (const ch of table.chunks) {
    ranks.set(ch.ranks.subarray(0, ch.length), at);
    for (let k = 0; k < 5; k++) counts[k]!.set(ch.counts[k]!.subarray(0, ch.length), at);
    at += ch.length;
  }
  return { ranks, counts };
}

/**
 * Every draw's total (units), `lexKeyOf` and numbers as a bitmask, by row; the largest total, or −1
 * when a total is not a whole number of units the sort can take.
 */
function keyDraws(
  ctx: QueryContext,
  rows: { ranks: Uint32Array; counts: CountColumn[] },
  totals: Float64Array,
  lexKeys: Uint32Array,
  maskLow: Int32Array,
  maskHigh: Int32Array,
): number {
  const { pool, w } = ctx;
  const un = new Unranker();
  const el = un.el;
  const top = BINOM[pool]![PICK]! - 1;
  const [c3, c4, c5, c6, c7] = rows.counts as [
    CountColumn,
    CountColumn,
    CountColumn,
    CountColumn,
    CountColumn,
  ];
  const { ranks } = rows;
  let maxTotal = 0;
  for (let i = 0; i < ranks.length; i++) {
    // the same sum, in the same order, as the scan of `queryDraws`
    const total =
      w[3]! * c3[i]! + w[4]! * c4[i]! + w[5]! * c5[i]! + w[6]! * c6[i]! + w[7]! * c7[i]!;
    if (!Number.isInteger(total) || total < 0 || total > 2 ** 48) return -1;
    totals[i] = total;
    if (total > maxTotal) maxTotal = total;
    un.set(ranks[i]!);
    lexKeys[i] = lexKeyOf(el, pool, top);
    let low = 0;
    let high = 0;
    for (let k = 1; k <= PICK; k++) {
      const b = el[k]!;
      if (b < 32) low |= 1 << b;
      else high |= 1 << (b - 32);
    }
    maskLow[i] = low;
    maskHigh[i] = high;
  }
  return maxTotal;
}

/** One stable counting pass: `from` ordered by `digits[row]` (< RADIX) into `to`. */
function radixPass(from: Uint32Array, to: Uint32Array, digits: Uint16Array): void {
  const count = new Uint32Array(RADIX + 1);
  const n = from.length;
  for (let i = 0; i < n; i++) count[digits[i]! + 1]!++;
  for (let d = 0; d < RADIX; d++) count[d + 1]! += count[d]!;
  for (let i = 0; i < n; i++) {
    const row = from[i]!;
    to[count[digits[row]!]!++] = row;
  }
}

/** `to[p] = from[order[p]]`. */
function gather(order: Uint32Array, from: CountColumn, to: CountColumn): void {
  for (let p = 0; p < order.length; p++) to[p] = from[order[p]!]!;
}

/** Sets each drawn number's bit at every position: 32 positions at a time, one word per number. */
function placeBits(
  order: Uint32Array,
  maskLow: Int32Array,
  maskHigh: Int32Array,
  bits: Uint32Array,
  words: number,
): void {
  const word = new Int32Array(64);
  const numbers = bits.length / words;
  for (let at = 0, w = 0; at < order.length; at += 32, w++) {
    word.fill(0);
    const end = Math.min(order.length, at + 32);
    for (let p = at; p < end; p++) {
      const row = order[p]!;
      let low = maskLow[row]!;
      let high = maskHigh[row]!;
      const bit = 1 << (p - at);
      while (low !== 0) {
        word[31 - Math.clz32(low & -low)]! |= bit;
        low &= low - 1;
      }
      while (high !== 0) {
        word[63 - Math.clz32(high & -high)]! |= bit;
        high &= high - 1;
      }
    }
    for (let b = 0; b < numbers; b++) bits[b * words + w] = word[b]!;
  }
}

/**
 * The combo's place among all C(P,7) combos in lexicographic order: lexicographic order of a set is
 * the reverse colex order of its mirror image (x → P−1−x), so it is C(P,7) − 1 − colex(mirror).
 */
function lexKeyOf(el: Int32Array, pool: number, top: number): number {
  let mirror = 0;
  for (let i = 1; i <= PICK; i++) mirror += BINOM[pool - 1 - el[PICK + 1 - i]!]![i]!;
  return top - mirror;
}

/**
 * The positions in a sort's order, for pages read off it instead of a scan: combo ascending
 * (`key` −1), or winners of match type 3 + `key` descending, then combo ascending. Stable radix
 * passes over the positions (0.2–0.5 s at 3.4M draws in the service at load 7–11); 4 B a qualifying draw.
 */
export function buildSortOrder(
  index: DrawIndex,
  key: number,
  allocate: Allocate = (bytes) => new ArrayBuffer(bytes),
): Uint32Array {
  const n = index.n;
  let order = new Uint32Array(n);
  let spare = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const digits = new Uint16Array(n);
  const { lexKey } = index;
  for (let shift = 0; shift < 30; shift += RADIX_BITS) {
    for (let p = 0; p < n; p++) digits[p] = (lexKey[p]! >>> shift) & RADIX_MASK;
    radixPass(order, spare, digits);
    [order, spare] = [spare, order];
  }
  if (key >= 0) {
    const column = index.counts[key]!;
    let max = 0;
    for (let p = 0; p < n; p++) if (column[p]! > max) max = column[p]!;
    for (let scale = 1; scale <= max; scale *= RADIX) {
      for (let p = 0; p < n; p++) digits[p] = Math.floor((max - column[p]!) / scale) % RADIX;
      radixPass(order, spare, digits);
      [order, spare] = [spare, order];
    }
  }
  const out = new Uint32Array(allocate(n * 4), 0, n);
  out.set(order);
  return out;
}

/** A query read against an index: the run of positions its payout range allows, and its numbers. */
export interface IndexedQuery {
  page: number;
  pageSize: number;
  f: RowFilter;
  /** Positions [from, to) whose total passes the payout range. */
  from: number;
  to: number;
  /** Numbers (0-based) that must / must not be drawn. */
  include: number[];
  exclude: number[];
}

function numbersOf(low: number, high: number): number[] {
  const out: number[] = [];
  for (let b = 0; b < 32; b++) if ((low >>> b) & 1) out.push(b);
  for (let b = 0; b < 32; b++) if ((high >>> b) & 1) out.push(b + 32);
  return out;
}

export function totalAt(index: DrawIndex, w: ArrayLike<number>, p: number): number {
  const [c3, c4, c5, c6, c7] = index.counts as [
    CountColumn,
    CountColumn,
    CountColumn,
    CountColumn,
    CountColumn,
  ];
  return w[3]! * c3[p]! + w[4]! * c4[p]! + w[5]! * c5[p]! + w[6]! * c6[p]! + w[7]! * c7[p]!;
}

/** The first position in [0, n) where `after(p)` holds (it holds from some position on). */
function firstWhere(n: number, after: (p: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The query checked and read against the index (throws INVALID_PARAMS as `queryDraws` does). */
export function planQuery(ctx: QueryContext, index: DrawIndex, q: FilterQuery): IndexedQuery {
  const { page, pageSize, f } = readQuery(ctx, q);
  const { unit, totalLoMinor, totalHiMinor } = f;
  // totals descend with the position: the run where lo ≤ total·unit ≤ hi (the scan's own test)
  const from = firstWhere(index.n, (p) => totalAt(index, ctx.w, p) * unit <= totalHiMinor);
  const to = firstWhere(index.n, (p) => totalAt(index, ctx.w, p) * unit < totalLoMinor);
  return {
    page,
    pageSize,
    f,
    from,
    to: Math.max(from, to),
    include: numbersOf(f.includeLow, f.includeHigh),
    exclude: numbersOf(f.excludeLow, f.excludeHigh),
  };
}
