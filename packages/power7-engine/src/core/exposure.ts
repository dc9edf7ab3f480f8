import { EngineError } from './errors';
import { countSubsets, type SubsetCounts } from './matches';
import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from './model';
import type { SharedBufferLease } from './shared-buffers';
import { countTables, foldFiveSets, splitTops } from './tables';
import type { BuildOp, BuildPlan } from './table-types';
import { radixSort27 } from './ticket-ranks';

/**
 * Exposure over a line (docs/product/services.md "Exposure"): which combinations make up the draws
 * whose total is above the line. Counted from the draw side, as the analysis counts the ticket side:
 * the draws over the line (or, when fewer, the others) are taken as "tickets" and their k-subsets
 * counted into tables (`countTables`); a combination's matches with those draws are then ~100 table
 * lookups and an inclusion–exclusion (`matchesWith`), whatever the line. By symmetry of |c ∩ d|, the
 * same identity the analysis uses for a draw's winners.
 */

/**
 * Σ of the totals above `line` in units, exactly (partial sums below 2^52 flushed to a bigint), and
 * how many there are.
 */
export function tailOf(totals: Float64Array, line: number): { draws: number; total: bigint } {
  let draws = 0;
  let total = 0n;
  let partial = 0;
  for (let r = 0; r < totals.length; r++) {
    const t = totals[r]!;
    if (t > line) {
      draws++;
      partial += t;
      if (partial > 2 ** 52) {
        total += BigInt(partial);
        partial = 0;
      }
    }
  }
  return { draws, total: total + BigInt(partial) };
}

/**
 * The draws whose total is above `floor`, in rank order, with their totals: every line ≥ `floor`
 * finds the draws above it here (`tailAbove`) instead of in every draw's total. `floor` is about the
 * top 3 % of the totals (read from a sample of them), so lines with ≤ 1 % of the draws above them
 * are served; null when more than 10 % of the draws would be kept (long ties at the floor).
 */
export interface TailIndex {
  floor: number;
  ranks: Uint32Array;
  totals: Float64Array;
}

/** `TailIndex` of every draw's total: one pass over them and a sort of ~65,536 of them. */
export function tailIndex(totals: Float64Array): TailIndex | null {
  const n = totals.length;
  const stride = Math.max(1, Math.floor(n / 65_536));
  const sample = new Float64Array(Math.ceil(n / stride));
  for (let i = 0; i < sample.length; i++) sample[i] = totals[i * stride]!;
  sample.sort();
  const floor = sample[Math.min(sample.length - 1, Math.floor(sample.length * 0.97))] ?? 0;
  const cap = Math.ceil(n * 0.1);
  const ranks = new Uint32Array(cap);
  const kept = new Float64Array(cap);
  let m = 0;
  for (let r = 0; r < n; r++) {
    const t = totals[r]!;
    if (t > floor) {
      if (m === cap) return null;
      ranks[m] = r;
      kept[m++] = t;
    }
  }
  return { floor, ranks: ranks.slice(0, m), totals: kept.slice(0, m) };
}

/** The draws above `line` (≥ `index.floor`): `tailOf`'s count and sum, and their ranks ascending. */
export function tailAbove(
  index: TailIndex,
  line: number,
): { draws: number; total: bigint; ranks: Uint32Array } {
  const { draws, total } = tailOf(index.totals, line);
  const ranks = new Uint32Array(draws);
  for (let i = 0, at = 0; at < draws; i++)
    if (index.totals[i]! > line) ranks[at++] = index.ranks[i]!;
  return { draws, total, ranks };
}

/** The draws of `ranks` as 7-byte tickets (ascending 1-based numbers), in the order given. */
export function drawsOfRanks(ranks: Uint32Array, pool: number): Uint8Array {
  const out = new Uint8Array(ranks.length * PICK);
  // C(v − 1, i) at [v·8 + i]: each number found by stepping down from the one above it
  const terms = TICKET_RANK_TERMS;
  for (let d = 0, p = 0; d < ranks.length; d++, p += PICK) {
    let r = ranks[d]!;
    let v = pool;
    for (let i = PICK; i >= 1; i--, v--) {
      while (terms[v * 8 + i]! > r) v--;
      out[p + i - 1] = v;
      r -= terms[v * 8 + i]!;
    }
  }
  return out;
}

/** Sets onSide[k] = 1 for each distinct combination whose rank is in `ranks` (both ascending). */
export function markDraws(
  distinctRanks: Uint32Array,
  ranks: Uint32Array,
  onSide: Uint8Array,
): void {
  const n = distinctRanks.length;
  let k = 0;
  for (let i = 0; i < ranks.length && k < n; i++) {
    const r = ranks[i]!;
    while (k < n && distinctRanks[k]! < r) k++;
    if (distinctRanks[k] === r) onSide[k] = 1;
  }
}

/**
 * The k-subset counts (k = 3..6) of `count` draws: a few counted one by one (`countSubsets`), more
 * by `countTables`' passes over every 6-set (on the plan's parts).
 */
export async function countDraws(
  draws: Uint8Array,
  count: number,
  pool: number,
  plan: BuildPlan,
  buffers: SharedBufferLease,
): Promise<SubsetCounts & { pool: number }> {
  if (count * 8 > BINOM[pool]![6]!) return countTables(draws, count, pool, plan, buffers);
  const tables = {
    pool,
    c3: buffers.u32(BINOM[pool]![3]!),
    c4: buffers.u32(BINOM[pool]![4]!),
    c5: buffers.u32(BINOM[pool]![5]!),
    c6: buffers.u32(BINOM[pool]![6]!),
  };
  countSubsets(draws, count, tables);
  return tables;
}

/**
 * The counted draws' tables folded with two weightings (`beta` of `deriveWeights`), interleaved per
 * 6-set as `FoldedDraws.y` reads them: the small layers here, the 6-set layer on the plan's parts
 * (the same tops of both weightings on the same part, so no two threads write one cache line).
 */
export async function foldTwice(
  counts: SubsetCounts & { pool: number },
  betas: [Float64Array, Float64Array],
  plan: BuildPlan,
  buffers: SharedBufferLease,
): Promise<Float64Array> {
  const { pool, c6 } = counts;
  const y = buffers.f64(2 * c6.length);
  const split = splitTops(pool, Math.max(1, plan.parts), 6);
  const ops: BuildOp[] = [];
  for (const [offset, beta] of betas.entries()) {
    const y5 = foldFiveSets(counts, beta, buffers);
    for (const tops of split) {
      ops.push({
        op: 'zeta',
        prev: y5,
        c: c6,
        beta: beta[6]!,
        out: y,
        stride: 2,
        offset,
        k: 6,
        pool,
        tops,
      });
    }
  }
  await plan.run(ops);
  return y;
}

/**
 * The `count` draws on one side of the line as 7-byte tickets (ascending 1-based numbers): walked in
 * colex order (the largest number outermost), so the draw of rank r is the r-th visited.
 */
export function drawsOnSide(
  totals: Float64Array,
  pool: number,
  line: number,
  above: boolean,
  count: number,
): Uint8Array {
  const out = new Uint8Array(count * PICK);
  let r = 0;
  let at = 0;
  for (let g = 7; g <= pool; g++)
    for (let f = 6; f < g; f++)
      for (let e = 5; e < f; e++)
        for (let d = 4; d < e; d++)
          for (let c = 3; c < d; c++)
            for (let b = 2; b < c; b++)
              for (let a = 1; a < b; a++, r++) {
                if (totals[r]! > line !== above) continue;
                out[at] = a;
                out[at + 1] = b;
                out[at + 2] = c;
                out[at + 3] = d;
                out[at + 4] = e;
                out[at + 5] = f;
                out[at + 6] = g;
                at += PICK;
              }
  return out;
}

/** Draws of the whole game sharing exactly j numbers with any one combination: C(7,j)·C(P−7,7−j). */
export function matchesOfAllDraws(pool: number): Float64Array {
  const out = new Float64Array(8);
  for (let j = 3; j <= PICK; j++) out[j] = BINOM[PICK]![j]! * BINOM[pool - PICK]![PICK - j]!;
  return out;
}

/** The distinct combinations of the tickets: colex ranks ascending, copies of each. */
export interface DistinctTickets {
  ranks: Uint32Array;
  copies: Uint32Array;
  /** Each distinct combination's numbers, 7 bytes each, in the order of `ranks`. */
  numbers: Uint8Array;
  /** Per ticket (file order), the index of its combination in `ranks`. */
  of: Uint32Array;
}

export function distinctTickets(tickets: Uint8Array, count: number): DistinctTickets {
  const ticketRanks = new Uint32Array(count);
  for (let i = 0; i < count; i++) ticketRanks[i] = ticketRank(tickets, i * PICK);
  const sorted = ticketRanks.slice();
  radixSort27(sorted);
  let n = 0;
  for (let i = 0; i < count; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) n++;
  const ranks = new Uint32Array(n);
  const copies = new Uint32Array(n);
  // shared: the scan workers read the combinations without a copy (`matches.ts`)
  const numbers = new Uint8Array(new SharedArrayBuffer(Math.max(1, n * PICK)));
  let d = -1;
  for (let i = 0; i < count; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) ranks[++d] = sorted[i]!;
    copies[d]!++;
  }
  const of = new Uint32Array(count);
  const seen = new Uint8Array(n);
  const find = rankFinder(ranks);
  for (let i = 0; i < count; i++) {
    const k = find(ticketRanks[i]!);
    of[i] = k;
    if (!seen[k]) {
      seen[k] = 1;
      for (let j = 0; j < PICK; j++) numbers[k * PICK + j] = tickets[i * PICK + j]!;
    }
  }
  return { ranks, copies, numbers, of };
}

/**
 * The index of a rank in `ranks` (ascending, distinct, holding it): a table over the ranks' high bits
 * (~2^16 buckets) narrows each search to the few ranks of one bucket, so a million tickets cost a
 * few probes each in one cache line or two instead of ~20 across the whole array.
 */
function rankFinder(ranks: Uint32Array): (rank: number) => number {
  const top = ranks.length > 0 ? ranks[ranks.length - 1]! : 0;
  const shift = Math.max(0, 32 - Math.clz32(top) - 16);
  // starts[b]: how many ranks lie in the buckets before b
  const starts = new Uint32Array((top >>> shift) + 2);
  for (let k = 0; k < ranks.length; k++) starts[(ranks[k]! >>> shift) + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b] = starts[b]! + starts[b - 1]!;
  return (rank) => {
    const b = rank >>> shift;
    let l = starts[b]!;
    let h = starts[b + 1]!;
    while (l < h) {
      const mid = (l + h) >>> 1;
      if (ranks[mid]! < rank) l = mid + 1;
      else h = mid;
    }
    return l;
  };
}

/** Past this many units a tail's sums could lose a unit in a float64: refused, not rounded. */
const EXACT_UNITS = 2 ** 53;

export function ensureExactTail(total: bigint): number {
  if (total >= BigInt(EXACT_UNITS)) {
    throw new EngineError(
      'PAYOUT_TOO_LARGE',
      'The draws over this line pay too much in total to rank exactly; choose a higher line.',
      'over',
    );
  }
  return Number(total);
}

/** Orders ranked items by `pays[i]`: largest payout first, ties by key ascending. */
export function byPayoutThenKey<K extends string | number>(
  pays: Float64Array,
  key: (i: number) => K,
) {
  return (a: number, b: number) => {
    const d = pays[b]! - pays[a]!;
    if (d !== 0) return d;
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
}

/**
 * The first `limit` indexes with a positive payout in `pays`, in `order` (which must put a larger
 * payout first), without sorting them all: a bounded pass keeps the best `limit` seen so far (binary
 * insertion into a short sorted list); an item paying less than the last kept is passed over at once.
 */
export function topIndexes(
  pays: Float64Array,
  order: (a: number, b: number) => number,
  limit: number,
): number[] {
  const best: number[] = [];
  let cut = 0;
  for (let i = 0; i < pays.length; i++) {
    const p = pays[i]!;
    if (!(p > 0)) continue;
    if (best.length === limit && (p < cut || order(i, best[limit - 1]!) >= 0)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order(i, best[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, i);
    if (best.length > limit) best.pop();
    if (best.length === limit) cut = pays[best[limit - 1]!]!;
  }
  return best;
}
