import type { QualifyingTable } from './analyze';
import { EngineError } from './errors';
import { BINOM, formatCombo, MATCH_TYPES, type MatchType, type WinnerCounts } from './model';
import { unitsToAmount } from './weights';

export type SortKey =
  'totalPayout' | 'combo' | 'winners3' | 'winners4' | 'winners5' | 'winners6' | 'winners7';

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

/**
 * Incremental colex unranking for ascending ranks: positions whose residual range still holds are
 * reused, so consecutive qualifying draws cost a few steps instead of a full search.
 */
class Unranker {
  readonly el = new Int32Array(8); // el[1..7] 0-based elements, position i has weight C(el[i], i)
  private readonly lowR = new Float64Array(8);
  private readonly highR = new Float64Array(8);
  constructor() {
    this.lowR.fill(1);
    this.highR.fill(0);
  }
  set(rank: number): void {
    let r = rank;
    let bound = 63;
    for (let i = 7; i >= 1; i--) {
      let c: number;
      if (r >= this.lowR[i]! && r < this.highR[i]!) c = this.el[i]!;
      else {
        c = Math.min(bound, 63);
        while (BINOM[c]![i]! > r) c--;
      }
      this.el[i] = c;
      this.lowR[i] = BINOM[c]![i]!;
      this.highR[i] = c + 1 <= 63 ? BINOM[c + 1]![i]! : Infinity;
      r -= BINOM[c]![i]!;
      bound = c - 1;
    }
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
 * Filters, sorts and paginates the qualifying draws. One pass over them (≈ 10–20 ns per draw) keeping
 * the best `page·pageSize` in a bounded heap; ties by combo ascending. Throws INVALID_PARAMS.
 */
export function queryDraws(ctx: QueryContext, q: FilterQuery): DrawPage {
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
  const validSort = [
    'totalPayout',
    'combo',
    'winners3',
    'winners4',
    'winners5',
    'winners6',
    'winners7',
  ];
  if (!validSort.includes(sort.by) || (sort.direction !== 'asc' && sort.direction !== 'desc')) {
    throw new EngineError('INVALID_PARAMS', 'Unknown sort.', 'sort');
  }
  const sign = sort.direction === 'asc' ? 1 : -1;
  const sortTier = sort.by.startsWith('winners') ? Number(sort.by.slice(7)) - 3 : -1;
  const byCombo = sort.by === 'combo';

  const wlo = new Float64Array(5);
  const whi = new Float64Array(5);
  let anyWinnerFilter = false;
  for (const m of MATCH_TYPES) {
    const [lo, hi] = checkRange(q.winners?.[m], `winners.${m}`);
    wlo[m - 3] = lo;
    whi[m - 3] = hi;
    if (lo !== -Infinity || hi !== Infinity) anyWinnerFilter = true;
  }
  const [tlo, thi] = checkRange(q.totalPayout, 'totalPayout');
  // compare in minor units: total·unit vs amount·100
  const tloMinor = tlo === -Infinity ? -Infinity : Math.round(tlo * 100);
  const thiMinor = thi === Infinity ? Infinity : Math.round(thi * 100);
  let incLo = 0;
  let incHi = 0;
  let excLo = 0;
  let excHi = 0;
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
        if (bit < 32) incLo |= 1 << bit;
        else incHi |= 1 << (bit - 32);
      } else if (bit < 32) excLo |= 1 << bit;
      else excHi |= 1 << (bit - 32);
    }
  }
  incLo >>>= 0;
  incHi >>>= 0;
  const numberFilter = (q.mustInclude?.length ?? 0) + (q.mustExclude?.length ?? 0) > 0;

  const w3 = ctx.w[3]!;
  const w4 = ctx.w[4]!;
  const w5 = ctx.w[5]!;
  const w6 = ctx.w[6]!;
  const w7 = ctx.w[7]!;
  const unit = ctx.unit;
  const un = new Unranker();
  const el = un.el;

  // bounded max-heap of the best `depth` rows by (key, lex)
  const hKey = new Float64Array(Math.min(depth, ctx.table.length) + 1);
  const hLex = new Float64Array(hKey.length);
  const hRank = new Float64Array(hKey.length);
  const hTot = new Float64Array(hKey.length);
  const hE = new Float64Array(hKey.length * 5);
  let hn = 0;
  const worse = (i: number, j: number) =>
    hKey[i]! > hKey[j]! || (hKey[i] === hKey[j] && hLex[i]! > hLex[j]!);
  const swap = (i: number, j: number) => {
    let t = hKey[i]!;
    hKey[i] = hKey[j]!;
    hKey[j] = t;
    t = hLex[i]!;
    hLex[i] = hLex[j]!;
    hLex[j] = t;
    t = hRank[i]!;
    hRank[i] = hRank[j]!;
    hRank[j] = t;
    t = hTot[i]!;
    hTot[i] = hTot[j]!;
    hTot[j] = t;
    for (let k = 0; k < 5; k++) {
      t = hE[i * 5 + k]!;
      hE[i * 5 + k] = hE[j * 5 + k]!;
      hE[j * 5 + k] = t;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < hn && worse(l, m)) m = l;
      if (r < hn && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  const siftUp = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(i, p)) return;
      swap(i, p);
      i = p;
    }
  };

  let matched = 0;
  for (const ch of ctx.table.chunks) {
    const [c3, c4, c5, c6, c7] = ch.counts as [
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
    const ranks = ch.ranks;
    for (let i = 0; i < ch.length; i++) {
      const e3 = c3[i]!;
      const e4 = c4[i]!;
      const e5 = c5[i]!;
      const e6 = c6[i]!;
      const e7 = c7[i]!;
      if (anyWinnerFilter) {
        if (e3 < wlo[0]! || e3 > whi[0]!) continue;
        if (e4 < wlo[1]! || e4 > whi[1]!) continue;
        if (e5 < wlo[2]! || e5 > whi[2]!) continue;
        if (e6 < wlo[3]! || e6 > whi[3]!) continue;
        if (e7 < wlo[4]! || e7 > whi[4]!) continue;
      }
      const tot = w3 * e3 + w4 * e4 + w5 * e5 + w6 * e6 + w7 * e7;
      const totMinor = tot * unit;
      if (totMinor < tloMinor || totMinor > thiMinor) continue;
      const rank = ranks[i]!;
      if (numberFilter) {
        un.set(rank);
        let lo = 0;
        let hi = 0;
        for (let k = 1; k <= 7; k++) {
          const b = el[k]!;
          if (b < 32) lo |= 1 << b;
          else hi |= 1 << (b - 32);
        }
        if ((lo & incLo) >>> 0 !== incLo || (hi & incHi) >>> 0 !== incHi) continue;
        if ((lo & excLo) !== 0 || (hi & excHi) !== 0) continue;
      }
      matched++;
      const v =
        sortTier === -1
          ? tot
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
      if (!byCombo && hn === depth && key > hKey[0]!) continue;
      if (!numberFilter) un.set(rank);
      const lex = lexOf(el);
      const k2 = byCombo ? sign * lex : key;
      if (hn < depth) {
        const at = hn++;
        hKey[at] = k2;
        hLex[at] = lex;
        hRank[at] = rank;
        hTot[at] = tot;
        hE[at * 5] = e3;
        hE[at * 5 + 1] = e4;
        hE[at * 5 + 2] = e5;
        hE[at * 5 + 3] = e6;
        hE[at * 5 + 4] = e7;
        siftUp(at);
      } else {
        const top = hKey[0]!;
        if (k2 > top || (k2 === top && lex >= hLex[0]!)) continue;
        hKey[0] = k2;
        hLex[0] = lex;
        hRank[0] = rank;
        hTot[0] = tot;
        hE[0] = e3;
        hE[1] = e4;
        hE[2] = e5;
        hE[3] = e6;
        hE[4] = e7;
        siftDown(0);
      }
    }
  }
  // pop everything: heap top is the worst
  const order: number[] = [];
  const n = hn;
  const keep = {
    key: [] as number[],
    lex: [] as number[],
    rank: [] as number[],
    tot: [] as number[],
    e: [] as number[][],
  };
  while (hn > 0) {
    keep.key.push(hKey[0]!);
    keep.lex.push(hLex[0]!);
    keep.rank.push(hRank[0]!);
    keep.tot.push(hTot[0]!);
    keep.e.push([hE[0]!, hE[1]!, hE[2]!, hE[3]!, hE[4]!]);
    hn--;
    if (hn > 0) {
      swap(0, hn);
      siftDown(0);
    }
  }
  for (let i = n - 1; i >= 0; i--) order.push(i);
  const start = (page - 1) * pageSize;
  const items: DrawRow[] = [];
  for (let j = start; j < Math.min(start + pageSize, n); j++) {
    const i = order[j]!;
    un.set(keep.rank[i]!);
    const numbers = Array.from(el.subarray(1, 8), (x) => x + 1);
    const e = keep.e[i]!;
    items.push({
      combo: formatCombo(numbers),
      numbers,
      winners: { 3: e[0]!, 4: e[1]!, 5: e[2]!, 6: e[3]!, 7: e[4]! },
      totalPayout: unitsToAmount(keep.tot[i]!, unit),
    });
  }
  return { items, page, pageSize, total: matched, totalPages: Math.ceil(matched / pageSize) };
}
