import type { CountColumn } from './scan';
import {
  BoundedHeap,
  drawRow,
  readQuery,
  Unranker,
  type DrawPage,
  type DrawRow,
  type FilterQuery,
  type QueryContext,
  type RowFilter,
} from './draw-query';
import { CancelledError } from './errors';
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

const words32 = (n: number) => Math.ceil(n / 32);

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

function totalAt(index: DrawIndex, w: ArrayLike<number>, p: number): number {
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

/** The positions of word `word` (32 from `word·32`) whose numbers pass, within [from, to). */
function wordMask(index: DrawIndex, q: IndexedQuery, word: number): number {
  const { bits, words } = index;
  let m = -1;
  for (const b of q.include) m &= bits[b * words + word]!;
  for (const b of q.exclude) m &= ~bits[b * words + word]!;
  const first = word * 32;
  if (first < q.from) m &= -1 << (q.from - first);
  if (first + 32 > q.to) m &= q.to - first >= 32 ? -1 : ~(-1 << (q.to - first));
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The draws of positions [wordFrom·32, wordTo·32) ∩ the query's run that pass every filter: how many,
 * and, for a sort other than the index's order, the best `depth` of them in `heap` (positions in its
 * rank slot). The scan that remains after the index, a part of the words per worker thread; `stop` is
 * asked every 64K positions and ends the scan with CancelledError when it says so.
 */
function scanIndex(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  wordFrom: number,
  wordTo: number,
  heap: BoundedHeap | null,
  stop: () => boolean = () => false,
): number {
  const scan = new RunScan(index, w, q, heap);
  let matched = 0;
  for (let from = wordFrom; from < wordTo; from += STOP_EVERY_WORDS) {
    if (stop()) throw new CancelledError();
    const to = Math.min(wordTo, from + STOP_EVERY_WORDS);
    matched += scan.words(from, to);
  }
  return matched;
}

/** How many of `column[from..to)` lie in [lo, hi]: one winners range, counted in a tight loop. */
function countInRange(
  column: CountColumn,
  lo: number,
  hi: number,
  from: number,
  to: number,
): number {
  let n = 0;
  for (let p = from; p < to; p++) {
    const e = column[p]!;
    if (e >= lo && e <= hi) n++;
  }
  return n;
}

/** Words between two `stop` questions (64K positions, well under a millisecond). */
const STOP_EVERY_WORDS = 2048;

/**
 * One query's scan of the run: only the columns it reads (the winners ranges that are set, the sort
 * key), the sort key first so a draw that cannot enter the heap costs one load.
 */
class RunScan {
  /** The winners columns with a range, and their bounds. */
  private readonly ranged: CountColumn[] = [];
  private readonly lo: number[] = [];
  private readonly hi: number[] = [];
  private readonly sortColumn: CountColumn | null;
  private readonly noNumbers: boolean;

  constructor(
    private readonly index: DrawIndex,
    private readonly w: ArrayLike<number>,
    private readonly q: IndexedQuery,
    private readonly heap: BoundedHeap | null,
  ) {
    const { winnersLo, winnersHi, sortTier } = q.f;
    for (let k = 0; k < 5; k++) {
      if (winnersLo[k] === -Infinity && winnersHi[k] === Infinity) continue;
      this.ranged.push(index.counts[k]!);
      this.lo.push(winnersLo[k]!);
      this.hi.push(winnersHi[k]!);
    }
    this.sortColumn = sortTier >= 0 ? index.counts[sortTier]! : null;
    this.noNumbers = q.include.length === 0 && q.exclude.length === 0;
  }

  /** The draws of words [wordFrom, wordTo) that pass (offered to the heap if there is one). */
  words(wordFrom: number, wordTo: number): number {
    const { index, q, heap } = this;
    if (this.noNumbers) {
      // no number filter: the run's positions in a row
      const from = Math.max(q.from, wordFrom * 32);
      const to = Math.min(q.to, wordTo * 32);
      if (!heap && this.ranged.length === 1)
        return countInRange(this.ranged[0]!, this.lo[0]!, this.hi[0]!, from, to);
      let matched = 0;
      for (let p = from; p < to; p++) matched += this.visit(p);
      return matched;
    }
    let matched = 0;
    for (let word = wordFrom; word < wordTo; word++) {
      let m = wordMask(index, q, word);
      if (this.ranged.length === 0 && !heap) {
        matched += popcount(m);
        continue;
      }
      while (m !== 0) {
        const p = word * 32 + 31 - Math.clz32(m & -m);
        m &= m - 1;
        matched += this.visit(p);
      }
    }
    return matched;
  }

  /** 1 if the draw at `p` passes the winners ranges (and goes to the heap), else 0. */
  private visit(p: number): number {
    const { ranged, lo, hi, heap } = this;
    for (let k = 0; k < ranged.length; k++) {
      const e = ranged[k]![p]!;
      if (e < lo[k]! || e > hi[k]!) return 0;
    }
    if (!heap) return 1;
    const { sign, byCombo } = this.q.f;
    const lex = this.index.lexKey[p]!;
    const v = byCombo
      ? lex
      : this.sortColumn
        ? this.sortColumn[p]!
        : totalAt(this.index, this.w, p);
    const key = sign * v;
    if (heap.size === heap.capacity && key > heap.worstKey()) return 1;
    // the heap's total and winners are not read back: the answer reads them at the position
    heap.offer(key, lex, p, 0, 0, 0, 0, 0, 0);
    return 1;
  }
}

/**
 * Positions of the page in the index's order (total descending, combo ascending; or total ascending,
 * combo ascending when `ascending`) of a query without winners ranges: walks the run from its best
 * end and stops at the page's last row.
 */
function pageInOrder(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  ascending: boolean,
  maxSteps = Infinity,
) {
  return walkPage(
    index,
    q,
    (take) => {
      const { from, to } = q;
      if (!ascending) {
        for (let p = from; p < to; p++) if (take(p)) return;
        return;
      }
      // equal totals stay in combo order: groups of one total from the smallest, each read forwards
      let end = to;
      while (end > from) {
        const total = totalAt(index, w, end - 1);
        let begin = end - 1;
        while (begin > from && totalAt(index, w, begin - 1) === total) begin--;
        for (let p = begin; p < end; p++) if (take(p)) return;
        end = begin;
      }
    },
    maxSteps,
  );
}

/**
 * The page's positions, `walk` handing positions in the query's sort order to `take` until it says
 * the page is full; every filter is tested on the way.
 */
function walkPage(
  index: DrawIndex,
  q: IndexedQuery,
  walk: (take: (p: number) => boolean) => void,
  maxSteps = Infinity,
): number[] | null {
  const start = (q.page - 1) * q.pageSize;
  const out: number[] = [];
  const { f, from, to } = q;
  let seen = 0;
  let steps = 0;
  let tooLong = false;
  walk((p) => {
    if (++steps > maxSteps) {
      tooLong = true;
      return true;
    }
    if (p < from || p >= to || !numbersPassAt(index, q, p)) return false;
    if (f.anyWinnerFilter) {
      for (let k = 0; k < 5; k++) {
        const e = index.counts[k]![p]!;
        if (e < f.winnersLo[k]! || e > f.winnersHi[k]!) return false;
      }
    }
    if (seen++ >= start) out.push(p);
    return out.length === q.pageSize;
  });
  return tooLong ? null : out;
}

/**
 * Which order a query's page is read in: −2 the index's own (total), −1 combo, 0..4 winners of
 * match type 3..7 (`buildSortOrder`).
 */
export function sortOrderKey(q: IndexedQuery): number {
  return q.f.byCombo ? -1 : q.f.sortTier >= 0 ? q.f.sortTier : -2;
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

/** The draws passing the query, counted in this thread (bitsets; a scan of the run for winners ranges). */
export function countHere(index: DrawIndex, w: ArrayLike<number>, q: IndexedQuery): number {
  return filtersPositions(q)
    ? scanIndex(index, w, q, q.from >>> 5, words32(q.to), null)
    : q.to - q.from;
}

/**
 * Positions a walk of the query's sort order is expected to visit for its page, given how many draws
 * pass (`matched`): the walk beats a scan of the run when this is small.
 */
export function walkSteps(index: DrawIndex, q: IndexedQuery, matched: number): number {
  const start = (q.page - 1) * q.pageSize;
  // a page past the end needs no walk
  if (start >= matched) return 0;
  const among = sortOrderKey(q) === -2 ? q.to - q.from : index.n;
  return Math.ceil((Math.min(q.f.depth, matched) * among) / matched);
}

/**
 * The answer from its count and a walk of its sort's order (`order`: `buildSortOrder` of
 * `sortOrderKey(q)`, or null for the index's own order); null when the walk would visit more than
 * `maxSteps` positions (matches bunched at the far end of the order).
 */
export function answerByWalk(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  matched: number,
  order: Uint32Array | null,
  maxSteps = Infinity,
): DrawPage | null {
  if ((q.page - 1) * q.pageSize >= matched) return pageOf(ctx, index, q, matched, []);
  const key = sortOrderKey(q);
  const ascending = q.f.sign === 1;
  if (!order) {
    const inOrder = pageInOrder(index, ctx.w, q, ascending, maxSteps);
    return inOrder && pageOf(ctx, index, q, matched, inOrder);
  }
  const n = order.length;
  const positions = walkPage(
    index,
    q,
    (take) => {
      if (key === -1 && !ascending) {
        // combo descending (each combo once)
        for (let i = n - 1; i >= 0; i--) if (take(order[i]!)) return;
        return;
      }
      if (key === -1 || !ascending) {
        // combo ascending, or winners descending then combo
        for (let i = 0; i < n; i++) if (take(order[i]!)) return;
        return;
      }
      // winners ascending: groups of one count from the smallest, each in combo order
      const column = index.counts[key]!;
      let end = n;
      while (end > 0) {
        const value = column[order[end - 1]!]!;
        let begin = end - 1;
        while (begin > 0 && column[order[begin - 1]!]! === value) begin--;
        for (let i = begin; i < end; i++) if (take(order[i]!)) return;
        end = begin;
      }
    },
    maxSteps,
  );
  return positions && pageOf(ctx, index, q, matched, positions);
}

function numbersPassAt(index: DrawIndex, q: IndexedQuery, p: number): boolean {
  const { bits, words } = index;
  const word = p >>> 5;
  const bit = 1 << (p & 31);
  for (const b of q.include) if ((bits[b * words + word]! & bit) === 0) return false;
  for (const b of q.exclude) if ((bits[b * words + word]! & bit) !== 0) return false;
  return true;
}

/** The answer row at position `p`. */
function rowAt(ctx: QueryContext, index: DrawIndex, un: Unranker, p: number): DrawRow {
  const e = index.counts.map((c) => c[p]!);
  return drawRow(ctx, un, index.rank[p]!, totalAt(index, ctx.w, p), e);
}

/** Whether anything but the payout range drops draws (else the run's length is the count). */
function filtersPositions(q: IndexedQuery): boolean {
  return q.f.anyWinnerFilter || q.include.length > 0 || q.exclude.length > 0;
}

/** Whether the query's page comes straight off the index's order (no heap over the run). */
function inIndexOrder(f: RowFilter): boolean {
  return !f.byCombo && f.sortTier === -1;
}

/**
 * Whether the query needs a scan of its run's columns (winners ranges, or a sort other than the
 * index's order): `scanPart` over parts of the run, on worker threads, then `answerFromParts`. Else
 * `answerInOrder` answers at once (bitsets and the positions' order).
 */
export function needsScan(q: IndexedQuery): boolean {
  return q.f.anyWinnerFilter || !inIndexOrder(q.f);
}

/** The query's run cut in `parts` ranges of words (for `scanPart`), the last ones maybe empty. */
export function wordParts(q: IndexedQuery, parts: number): [number, number][] {
  const first = q.from >>> 5;
  const end = words32(q.to);
  const step = Math.ceil((end - first) / parts);
  return Array.from({ length: parts }, (_, i) => {
    const from = Math.min(end, first + i * step);
    return [from, Math.min(end, from + step)];
  });
}

/** One part of a query's scan: how many draws passed, and the best `depth` of them (positions). */
export interface ScannedPart {
  matched: number;
  positions: Float64Array;
}

/**
 * Scans words [wordFrom, wordTo) of the query's run (a worker thread's share of `needsScan`); only
 * counts when `countOnly`.
 */
export function scanPart(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  wordFrom: number,
  wordTo: number,
  stop?: () => boolean,
  countOnly = false,
): ScannedPart {
  const heap = countOnly ? null : new BoundedHeap(Math.min(q.f.depth, index.n));
  const matched = scanIndex(index, w, q, wordFrom, wordTo, heap, stop);
  const rows = heap?.drainBestFirst() ?? [];
  return { matched, positions: Float64Array.from(rows, (row) => row.rank) };
}

/**
 * The answer from the parts of a query's scan: their counts added, their best rows (each part's in
 * order) merged up to the page's last row.
 */
export function answerFromParts(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  parts: ScannedPart[],
): DrawPage {
  const { sign, sortTier, byCombo } = q.f;
  const { lexKey } = index;
  const sortColumn = sortTier >= 0 ? index.counts[sortTier]! : null;
  const keyOf = (p: number) =>
    sign * (byCombo ? lexKey[p]! : sortColumn ? sortColumn[p]! : totalAt(index, ctx.w, p));
  const start = (q.page - 1) * q.pageSize;
  const heads = parts.map(() => 0);
  const positions: number[] = [];
  for (let taken = 0; taken < start + q.pageSize; taken++) {
    let best = -1;
    let bestKey = 0;
    let bestLex = 0;
    parts.forEach((part, i) => {
      if (heads[i]! >= part.positions.length) return;
      const p = part.positions[heads[i]!]!;
      const key = keyOf(p);
      const lex = lexKey[p]!;
      if (best === -1 || key < bestKey || (key === bestKey && lex < bestLex)) {
        best = i;
        bestKey = key;
        bestLex = lex;
      }
    });
    if (best === -1) break;
    const p = parts[best]!.positions[heads[best]!++]!;
    if (taken >= start) positions.push(p);
  }
  const matched = parts.reduce((sum, part) => sum + part.matched, 0);
  return pageOf(ctx, index, q, matched, positions);
}

/** The answer of a query that needs no scan: its count from the bitsets, its page off the order. */
export function answerInOrder(ctx: QueryContext, index: DrawIndex, q: IndexedQuery): DrawPage {
  const matched = filtersPositions(q)
    ? scanIndex(index, ctx.w, q, q.from >>> 5, words32(q.to), null)
    : q.to - q.from;
  return pageOf(ctx, index, q, matched, pageInOrder(index, ctx.w, q, q.f.sign === 1)!);
}

/** How a query is answered in this thread (`queryIndex`): as the service's threads would do it. */
export interface InThread {
  /** Parts the scan is cut in (default 1). */
  parts?: number;
  /** The sort orders a page may be walked in (none: every sort but the index's own scans). */
  orderOf?: (key: number) => Uint32Array;
  /** Most positions a walk may visit before a scan is preferred (default `WALK_LIMIT`). */
  walkLimit?: number;
}

/** Positions a page's walk is expected to visit (random reads) below which it beats a scan. */
export const WALK_LIMIT = 200_000;
/** A walk gives up past this many times its limit (its matches bunched at the far end). */
export const WALK_SLACK = 4;

/**
 * `queryDraws`' answer from the index, all in this thread: at once from the index when it can, else
 * its count and a walk of the sort's order when the walk is short, else a scan (cut in `parts` as the
 * worker threads would share it). Throws INVALID_PARAMS as `queryDraws` does.
 */
export function queryIndex(
  ctx: QueryContext,
  index: DrawIndex,
  query: FilterQuery,
  { parts = 1, orderOf, walkLimit = WALK_LIMIT }: InThread = {},
): DrawPage {
  const q = planQuery(ctx, index, query);
  if (!needsScan(q)) return answerInOrder(ctx, index, q);
  if (orderOf) {
    const matched = countHere(index, ctx.w, q);
    if (walkSteps(index, q, matched) <= walkLimit) {
      const key = sortOrderKey(q);
      const order = key === -2 ? null : orderOf(key);
      const walked = answerByWalk(ctx, index, q, matched, order, walkLimit * WALK_SLACK);
      if (walked) return walked;
    }
  }
  const scanned = wordParts(q, parts).map(([from, to]) => scanPart(index, ctx.w, q, from, to));
  return answerFromParts(ctx, index, q, scanned);
}

/** The answer with its count and the positions of its page's rows. */
function pageOf(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  matched: number,
  positions: number[],
): DrawPage {
  const un = new Unranker();
  return {
    items: positions.map((p) => rowAt(ctx, index, un, p)),
    page: q.page,
    pageSize: q.pageSize,
    total: matched,
    totalPages: Math.ceil(matched / q.pageSize),
  };
}
