import type { CountColumn } from './scan';
import { BoundedHeap } from './bounded-heap';
import { EngineError } from './errors';
import { BINOM, formatCombo, MATCH_TYPES, type MatchType, type WinnerCounts } from './model';
import { unitsToAmount } from './weights';

import { csvRow } from '@pa/contracts/csv';
import { SORT_KEYS, type DrawSortKey } from '@pa/contracts/power7-limits';

/**
 * The qualifying draws in ascending colex rank, column-wise and chunked (no single huge allocation):
 * each chunk has `ranks` and winners per match type 3..7 (`counts[0..4]`). Made by `analyzeTickets`
 * (`analysis/analyze.ts`), saved by `store/session-analysis.ts`.
 */
export interface QualifyingTable {
  length: number;
  chunks: { length: number; ranks: Uint32Array; counts: CountColumn[] }[];
}

/** What the qualifying draws can be sorted by (shared with the service's and the browser's forms). */
export { SORT_KEYS };
export type SortKey = DrawSortKey;

export interface Range {
  min?: number;
  max?: number;
}

/** A query over the qualifying draws. Every filter is optional; ranges are inclusive. */
export interface FilterQuery {
  /** 1-based, default 1. */
  page?: number;
  /** Default 20, 1..1000. */
  pageSize?: number;
  /** Default `totalPayout` descending; ties always by combo ascending. */
  sort?: { by: SortKey; direction: 'asc' | 'desc' };
  winners?: Partial<Record<MatchType, Range>>;
  /** Currency units. */
  totalPayout?: Range;
  /** Numbers every listed draw must contain. */
  mustInclude?: number[];
  /** Numbers no listed draw may contain. */
  mustExclude?: number[];
}

/** One draw with its winners per match type and total payout (currency units). */
export interface DrawRow {
  combo: string;
  numbers: number[];
  winners: WinnerCounts;
  totalPayout: number;
}

export interface DrawPage {
  items: DrawRow[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface QueryContext {
  pool: number;
  table: QualifyingTable;
  /** Payout per match type in units (index 3..7). */
  w: ArrayLike<number>;
  /** Minor units per unit. */
  unit: number;
}

/** Deepest row a query may reach (page · pageSize), so a query never sorts millions of rows. */
export const MAX_DEPTH = 1_000_000;

// The two smallest elements of a colex rank's residual C(e2,2) + C(e1,1) (< C(64,2)), by table.
const PAIR_COUNT = (64 * 63) / 2;
const PAIR_HIGH = new Uint8Array(PAIR_COUNT);
const PAIR_LOW = new Uint8Array(PAIR_COUNT);
for (let e2 = 1, at = 0; e2 < 64; e2++) {
  for (let e1 = 0; e1 < e2; e1++, at++) {
    PAIR_HIGH[at] = e2;
    PAIR_LOW[at] = e1;
  }
}

// Number bit masks split in two 32-bit words, by table (no data-dependent branch per number).
const BIT_LOW = Int32Array.from({ length: 64 }, (_, b) => (b < 32 ? 1 << b : 0));
const BIT_HIGH = Int32Array.from({ length: 64 }, (_, b) => (b < 32 ? 0 : 1 << (b - 32)));

// C(n, k) by k-row, n = 0..64: BIN_BY_K[k * 65 + n].
const BIN_BY_K = (() => {
  const t = new Float64Array(8 * 65);
  for (let k = 0; k < 8; k++) for (let n = 0; n <= 64; n++) t[k * 65 + n] = BINOM[n]![k]!;
  return t;
})();

/**
 * Colex unranking tuned for ascending ranks (the order of the qualifying table): while the higher
 * positions stay, a position's element can only grow, so each position resumes from its last value
 * (a step or none per draw); the two lowest come from a table. A smaller rank than the previous one
 * restarts every position from its minimum.
 */
export class Unranker {
  readonly el = new Int32Array(8); // el[1..7] 0-based elements, position i has weight C(el[i], i)
  private last = -1;
  set(rank: number): void {
    let r = rank;
    let changed = rank < this.last;
    this.last = rank;
    const el = this.el;
    for (let i = 7; i >= 3; i--) {
      const row = i * 65;
      let c = changed ? i - 1 : el[i]!;
      while (BIN_BY_K[row + c + 1]! <= r) c++;
      if (c !== el[i]) changed = true;
      el[i] = c;
      r -= BIN_BY_K[row + c]!;
    }
    el[2] = PAIR_HIGH[r]!;
    el[1] = PAIR_LOW[r]!;
  }
}

function lexOf(el: Int32Array): number {
  let k = 0;
  for (let i = 1; i <= 7; i++) k = k * 64 + el[i]!;
  return k;
}

function checkRange(r: Range | undefined, field: string): [number, number] {
  if (!r) return [-Infinity, Infinity];
  const lo = r.min ?? -Infinity;
  const hi = r.max ?? Infinity;
  if (Number.isNaN(lo) || Number.isNaN(hi) || typeof lo !== 'number' || typeof hi !== 'number') {
    throw new EngineError('INVALID_PARAMS', `${field} must be numbers.`, field);
  }
  if (lo > hi) throw new EngineError('INVALID_PARAMS', `${field}: min must not exceed max.`, field);
  return [lo, hi];
}

/**
 * A checked query: its page, page size, the rows it must rank (`depth` = page · pageSize) and its
 * filters and sort (`f`). Throws INVALID_PARAMS naming the field.
 */
export function readQuery(
  ctx: QueryContext,
  q: FilterQuery,
): { page: number; pageSize: number; f: RowFilter } {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  if (!Number.isInteger(page) || page < 1) {
    throw new EngineError('INVALID_PARAMS', 'page must be a whole number ≥ 1.', 'page');
  }
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new EngineError(
      'INVALID_PARAMS',
      'pageSize must be a whole number from 1 to 1000.',
      'pageSize',
    );
  }
  const depth = page * pageSize;
  if (depth > MAX_DEPTH) {
    throw new EngineError(
      'INVALID_PARAMS',
      `Pages deeper than ${MAX_DEPTH} rows are not served; narrow the filters.`,
      'page',
    );
  }
  const sort = q.sort ?? { by: 'totalPayout', direction: 'desc' };
  if (!SORT_KEYS.includes(sort.by) || (sort.direction !== 'asc' && sort.direction !== 'desc')) {
    throw new EngineError('INVALID_PARAMS', 'Unknown sort.', 'sort');
  }
  const sign = sort.direction === 'asc' ? 1 : -1;
  const sortTier = sort.by.startsWith('winners') ? Number(sort.by.slice(7)) - 3 : -1;

  const f = new RowFilter(sign, sortTier, sort.by === 'combo', depth);
  readFilters(ctx, q, f);
  return { page, pageSize, f };
}

/** One answer row: the draw of colex `rank`, its winners 3..7 (`e`) and total (units). */
export function drawRow(
  ctx: QueryContext,
  un: Unranker,
  rank: number,
  total: number,
  e: ArrayLike<number>,
): DrawRow {
  un.set(rank);
  const numbers = Array.from(un.el.subarray(1, 8), (x) => x + 1);
  return {
    combo: formatCombo(numbers),
    numbers,
    winners: { 3: e[0]!, 4: e[1]!, 5: e[2]!, 6: e[3]!, 7: e[4]! },
    totalPayout: unitsToAmount(total, ctx.unit),
  };
}

/**
 * Filters, sorts and paginates the qualifying draws. One pass over them (≈ 10–20 ns per draw) keeping
 * the best `page·pageSize` in a bounded heap; ties by combo ascending. Throws INVALID_PARAMS.
 * `core/draw-index.ts` answers the same from an index without the pass; this is its reference.
 */
export function queryDraws(ctx: QueryContext, q: FilterQuery): DrawPage {
  const { page, pageSize, f } = readQuery(ctx, q);
  const heap = new BoundedHeap(Math.min(f.depth, ctx.table.length));
  const un = new Unranker();
  let matched = 0;
  for (const ch of ctx.table.chunks) {
    const [c3, c4, c5, c6, c7] = ch.counts;
    matched += filterChunk(f, heap, un, ch.length, ch.ranks, c3!, c4!, c5!, c6!, c7!);
  }

  const rows = heap.drainBestFirst();
  const start = (page - 1) * pageSize;
  const items: DrawRow[] = [];
  for (let j = start; j < Math.min(start + pageSize, rows.length); j++) {
    const row = rows[j]!;
    items.push(drawRow(ctx, un, row.rank, row.total, row.e));
  }
  return { items, page, pageSize, total: matched, totalPages: Math.ceil(matched / pageSize) };
}

/** Reads the query's filters into `f` (throws INVALID_PARAMS naming the field). */
function readFilters(ctx: QueryContext, q: FilterQuery, f: RowFilter): void {
  for (const m of MATCH_TYPES) {
    const [lo, hi] = checkRange(q.winners?.[m], `winners.${m}`);
    f.winnersLo[m - 3] = lo;
    f.winnersHi[m - 3] = hi;
    if (lo !== -Infinity || hi !== Infinity) f.anyWinnerFilter = true;
  }
  const [tlo, thi] = checkRange(q.totalPayout, 'totalPayout');
  // compare in minor units: total·unit vs amount·100
  f.totalLoMinor = tlo === -Infinity ? -Infinity : Math.round(tlo * 100);
  f.totalHiMinor = thi === Infinity ? Infinity : Math.round(thi * 100);
  for (const [list, name] of [
    [q.mustInclude ?? [], 'mustInclude'],
    [q.mustExclude ?? [], 'mustExclude'],
  ] as const) {
    for (const n of list) {
      if (!Number.isInteger(n) || n < 1 || n > ctx.pool) {
        throw new EngineError('INVALID_PARAMS', `${name}: ${n} is not in 1..${ctx.pool}.`, name);
      }
      const bit = n - 1;
      if (name === 'mustInclude') {
        f.includeLow |= BIT_LOW[bit]!;
        f.includeHigh |= BIT_HIGH[bit]!;
      } else {
        f.excludeLow |= BIT_LOW[bit]!;
        f.excludeHigh |= BIT_HIGH[bit]!;
      }
      f.numberFilter = true;
    }
  }
  for (let m = 3; m <= 7; m++) f.w[m - 3] = ctx.w[m]!;
  f.unit = ctx.unit;
}

/**
 * Every qualifying draw passing the query's filters (its page, page size and sort ignored), in the
 * table's order (ascending colex rank), as batches of at most `batch` rows: memory stays one batch
 * whatever the number of draws. Throws INVALID_PARAMS before the first batch.
 */
export function exportDraws(ctx: QueryContext, q: FilterQuery, batch = 4096): Iterable<DrawRow[]> {
  const f = new RowFilter(1, -1, false, 0);
  readFilters(ctx, q, f);
  return (function* () {
    const un = new Unranker();
    let rows: DrawRow[] = [];
    for (const ch of ctx.table.chunks) {
      const [c3, c4, c5, c6, c7] = ch.counts as [
        CountColumn,
        CountColumn,
        CountColumn,
        CountColumn,
        CountColumn,
      ];
      for (let i = 0; i < ch.length; i++) {
        const e = [c3[i]!, c4[i]!, c5[i]!, c6[i]!, c7[i]!];
        const total = drawTotal(f, e);
        if (total < 0) continue;
        un.set(ch.ranks[i]!);
        if (f.numberFilter && !numbersPass(f, un.el)) continue;
        const numbers = Array.from(un.el.subarray(1, 8), (x) => x + 1);
        rows.push({
          combo: formatCombo(numbers),
          numbers,
          winners: { 3: e[0]!, 4: e[1]!, 5: e[2]!, 6: e[3]!, 7: e[4]! },
          totalPayout: unitsToAmount(total, ctx.unit),
        });
        if (rows.length === batch) {
          yield rows;
          rows = [];
        }
      }
    }
    if (rows.length) yield rows;
  })();
}

/** The header of the draws CSV (`exportDraws` rows). */
export const DRAWS_CSV_HEADER = [
  'combo',
  'winners_3',
  'winners_4',
  'winners_5',
  'winners_6',
  'winners_7',
  'total_payout',
];

/** The draws as CSV text chunks (one per batch): the combo, the winners per match type and the total. */
export function* drawsCsv(batches: Iterable<DrawRow[]>): Generator<string> {
  yield csvRow(DRAWS_CSV_HEADER);
  for (const rows of batches) {
    let out = '';
    for (const r of rows) {
      const w = r.winners;
      out += csvRow([r.combo, w[3], w[4], w[5], w[6], w[7], r.totalPayout]);
    }
    yield out;
  }
}

/** The draw's total (units) when its winners and total pass the filters, else −1. */
function drawTotal(f: RowFilter, e: number[]): number {
  if (f.anyWinnerFilter) {
    for (let k = 0; k < 5; k++) if (e[k]! < f.winnersLo[k]! || e[k]! > f.winnersHi[k]!) return -1;
  }
  let total = 0;
  for (let k = 0; k < 5; k++) total += f.w[k]! * e[k]!;
  const minor = total * f.unit;
  return minor < f.totalLoMinor || minor > f.totalHiMinor ? -1 : total;
}

// The per-row work is split into small functions over typed arrays, numbers and two classes of a
// fixed shape, so V8 optimises them once (a single big function with closures was deoptimised and
// recompiled several times per query).

/** A parsed query: the filters, the sort key and the page depth. */
export class RowFilter {
  readonly winnersLo = new Float64Array(5);
  readonly winnersHi = new Float64Array(5);
  anyWinnerFilter = false;
  totalLoMinor = -Infinity;
  totalHiMinor = Infinity;
  includeLow = 0;
  includeHigh = 0;
  excludeLow = 0;
  excludeHigh = 0;
  numberFilter = false;
  /** Payout per match type 3..7 in units. */
  readonly w = new Float64Array(5);
  unit = 1;
  constructor(
    /** 1 ascending, −1 descending. */
    readonly sign: number,
    /** Sort by winners of match type 3 + sortTier, or −1: by total payout. */
    readonly sortTier: number,
    readonly byCombo: boolean,
    readonly depth: number,
  ) {}
}

/** Filters one chunk of qualifying draws into the heap; returns how many rows matched. */
function filterChunk(
  f: RowFilter,
  heap: BoundedHeap,
  un: Unranker,
  length: number,
  ranks: Uint32Array,
  c3: CountColumn,
  c4: CountColumn,
  c5: CountColumn,
  c6: CountColumn,
  c7: CountColumn,
): number {
  const w = f.w;
  const w3 = w[0]!;
  const w4 = w[1]!;
  const w5 = w[2]!;
  const w6 = w[3]!;
  const w7 = w[4]!;
  const { unit, anyWinnerFilter, numberFilter, totalLoMinor, totalHiMinor, sign, sortTier } = f;
  const { byCombo, depth, winnersLo: lo, winnersHi: hi } = f;
  const el = un.el;
  let matched = 0;
  for (let i = 0; i < length; i++) {
    const e3 = c3[i]!;
    const e4 = c4[i]!;
    const e5 = c5[i]!;
    const e6 = c6[i]!;
    const e7 = c7[i]!;
    if (
      anyWinnerFilter &&
      (e3 < lo[0]! ||
        e3 > hi[0]! ||
        e4 < lo[1]! ||
        e4 > hi[1]! ||
        e5 < lo[2]! ||
        e5 > hi[2]! ||
        e6 < lo[3]! ||
        e6 > hi[3]! ||
        e7 < lo[4]! ||
        e7 > hi[4]!)
    ) {
      continue;
    }
    const total = w3 * e3 + w4 * e4 + w5 * e5 + w6 * e6 + w7 * e7;
    const totalMinor = total * unit;
    if (totalMinor < totalLoMinor || totalMinor > totalHiMinor) continue;
    const rank = ranks[i]!;
    if (numberFilter) {
      un.set(rank);
      if (!numbersPass(f, el)) continue;
    }
    matched++;
    const v =
      sortTier === -1
        ? total
        : sortTier === 0
          ? e3
          : sortTier === 1
            ? e4
            : sortTier === 2
              ? e5
              : sortTier === 3
                ? e6
                : e7;
    const key = byCombo ? 0 : sign * v;
    // cheap reject before unranking for the tie-break
    if (!byCombo && heap.size === depth && key > heap.worstKey()) continue;
    if (!numberFilter) un.set(rank);
    const lex = lexOf(el);
    heap.offer(byCombo ? sign * lex : key, lex, rank, total, e3, e4, e5, e6, e7);
  }
  return matched;
}

/** Whether the draw (elements el[1..7], 0-based) holds every must-include and no must-exclude number. */
function numbersPass(f: RowFilter, el: Int32Array): boolean {
  let low = 0;
  let high = 0;
  for (let k = 1; k <= 7; k++) {
    const b = el[k]!;
    low |= BIT_LOW[b]!;
    high |= BIT_HIGH[b]!;
  }
  return (
    (low & f.includeLow) === f.includeLow &&
    (high & f.includeHigh) === f.includeHigh &&
    (low & f.excludeLow) === 0 &&
    (high & f.excludeHigh) === 0
  );
}
