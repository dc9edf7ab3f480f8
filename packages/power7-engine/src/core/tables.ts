import { groupDraws } from './distribution-group';
import { matchesRange } from './matches';
import { writeLess } from './totals-less';
import { invariant } from './errors';
import { BINOM, PICK } from './model';
import { SharedBufferLease } from './shared-buffers';
import { allTops, countSixSubsets, divideCounts, pushDown, zetaLayer } from './subset-layers';
import type { BuildOp, BuildPlan, CountedTickets, CountTables, Tables } from './table-types';
import {
  distinctOfSorted,
  distinctPiece,
  distinctPieces,
  distinctTickets,
  joinDistinctPieces,
  radixSort27,
} from './ticket-ranks';
import type { Weights } from './weights';

/** Executes one build piece in the calling thread. */
export function runBuildOp(op: BuildOp): void {
  if (op.op === 'count6') {
    countSixSubsets(op.tickets, op.from, op.to, op.c6, op.ranks);
    if (op.ranks) radixSort27(op.ranks);
  } else if (op.op === 'sort') radixSort27(op.ranks);
  else if (op.op === 'pushDown') pushDown(op.from, op.to, op.k, op.pool, op.tops);
  else if (op.op === 'distinct') distinctPiece(op);
  else if (op.op === 'group') groupDraws(op);
  else if (op.op === 'matches') matchesRange(op);
  else if (op.op === 'less') writeLess(op);
  else zetaLayer(op.prev, op.c, op.beta, op.out, op.k, op.pool, op.tops, op.stride, op.offset);
}

/** Everything in the calling thread, one piece per step. */
export const INLINE_BUILD: BuildPlan = {
  parts: 1,
  run: (ops) => {
    for (const op of ops) runBuildOp(op);
    return Promise.resolve();
  },
};

/**
 * Splits the sets of size `k` by their largest number g (0-based, k−1 ≤ g < pool) into `parts` lists
 * of about equal work (C(g, k−1) sets each), largest first onto the least loaded part.
 */
export function splitTops(pool: number, parts: number, k: number = PICK): number[][] {
  const lists: number[][] = Array.from({ length: parts }, () => []);
  const load = new Float64Array(parts);
  for (let g = pool - 1; g >= k - 1; g--) {
    let best = 0;
    for (let i = 1; i < parts; i++) if (load[i]! < load[best]!) best = i;
    lists[best]!.push(g);
    load[best] = load[best]! + BINOM[g]![k - 1]!;
  }
  return lists;
}

/**
 * Builds every table from the tickets (7 ascending 1-based numbers each, `count` tickets). The heavy
 * steps (counting the 6-subsets, the first push-down, the 6-set zeta layer) are split into
 * `plan.parts` pieces; the small layers run here. Cost: 7T increments + a radix sort of T ranks +
 * O(C(P,6)·6) contiguous passes. Memory at P=45: ~100 MB (+33 MB per extra part while counting).
 */
export async function buildTables(
  tickets: Uint8Array,
  count: number,
  pool: number,
  weights: Weights,
  plan: BuildPlan = INLINE_BUILD,
  buffers: SharedBufferLease = new SharedBufferLease(null),
): Promise<Tables> {
  const counts = await countTables(tickets, count, pool, plan, buffers);
  return foldTables(counts, weights, plan, buffers);
}

/**
 * Counts tickets [0, count) into `c6` (their 6-subsets) and writes their colex ranks, in order, into
 * `ranks`: a file's share of `CountedTickets`, on the thread that has just read it.
 */
export function countWhileReading(
  tickets: Uint8Array,
  count: number,
  c6: Uint32Array,
  ranks: Uint32Array,
): void {
  countSixSubsets(tickets, 0, count, c6, ranks);
}

/**
 * The count tables of `buildTables`: the k-set counts, the distinct tickets and their maxima. With
 * `counted` (the same tickets counted while they were read, same pool), the 6-subsets are not counted
 * again: only the partial tables are added up and the ranks sorted.
 */
export async function countTables(
  tickets: Uint8Array,
  count: number,
  pool: number,
  plan: BuildPlan = INLINE_BUILD,
  buffers: SharedBufferLease = new SharedBufferLease(null),
  counted?: CountedTickets,
): Promise<CountTables> {
  const parts = Math.max(1, plan.parts);
  const n6 = BINOM[pool]![6]!;
  const n5 = BINOM[pool]![5]!;
  const bounds = Array.from({ length: parts + 1 }, (_, i) => Math.floor((count * i) / parts));
  let c6: Uint32Array;
  let ranks: Uint32Array | null;
  let distinct: ReturnType<typeof distinctTickets> | null = null;
  if (counted) {
    invariant(
      counted.pool === pool && counted.ranks.length === count && counted.c6[0]?.length === n6,
      'tables counted while reading are of other tickets',
    );
    c6 = counted.c6[0]!;
    ranks = counted.ranks;
    // given back to the pool with this analysis' own buffers
    for (const table of counted.c6) buffers.adopt(table);
    buffers.adopt(ranks);
    const sorting = plan.run(
      Array.from({ length: parts }, (_, i) => ({
        op: 'sort' as const,
        ranks: ranks!.subarray(bounds[i]!, bounds[i + 1]!),
      })),
    );
    addInto(c6, counted.c6.slice(1));
    await sorting;
    if (parts === 1) {
      distinct = distinctOfSorted(ranks, buffers);
      ranks = null;
    }
  } else {
    // 6-subset counts, one partial table per extra part; meanwhile the distinct tickets here
    c6 = buffers.u32(n6);
    const partial6 = [c6, ...Array.from({ length: parts - 1 }, () => buffers.u32(n6))];
    // shared, so the workers read the tickets without a copy each
    const ticketsShared = parts > 1 ? buffers.copy(tickets.subarray(0, count * 7)) : tickets;
    // split: each part also ranks and sorts its tickets, merged here; else sorted here meanwhile
    ranks = parts > 1 ? buffers.u32(count, false) : null;
    const counting = plan.run(
      partial6.map((table, i) => ({
        op: 'count6' as const,
        tickets: ticketsShared,
        from: bounds[i]!,
        to: bounds[i + 1]!,
        c6: table,
        ...(ranks ? { ranks: ranks.subarray(bounds[i]!, bounds[i + 1]!) } : {}),
      })),
    );
    distinct = ranks ? null : distinctTickets(tickets, count, buffers);
    await counting;
    addInto(c6, partial6.slice(1));
  }

  // c5 from c6 in parts (each into its own table), c4 and c3 here
  const c5 = buffers.u32(n5);
  const partial5 = [c5, ...Array.from({ length: parts - 1 }, () => buffers.u32(n5))];
  const tops6 = splitTops(pool, parts, 6);
  await plan.run(
    partial5.map((to, i) => ({
      op: 'pushDown' as const,
      from: c6,
      to,
      k: 5,
      pool,
      tops: tops6[i]!,
    })),
  );
  // the parts' sorted tickets merged and de-duplicated in value ranges on the workers, while the
  // small layers are pushed down here (with both in one step, the workers waited for these)
  const pieces = ranks ? distinctPieces(ranks, bounds, buffers) : [];
  const deduplicating = pieces.length > 0 ? plan.run(pieces) : null;
  // not left unhandled if this thread throws first (the error comes from the await below)
  deduplicating?.catch(() => {});
  const { c3, c4, max } = smallCounts(c5, partial5.slice(1), pool, buffers);
  const max6 = maxOf(c6);
  await deduplicating;
  const { ticketRanks, ticketMult, maxC7 } = distinct ?? joinDistinctPieces(pieces, buffers);
  return {
    pool,
    c3,
    c4,
    c5,
    c6,
    ticketRanks,
    ticketMult,
    maxCount: [...max, max6, maxC7],
  };
}

/**
 * c5 (the sum of its partial tables, divided), c4 and c3 pushed down from it, and the maxima of c3..c5
 * (`maxCount`'s indexes 0..5).
 */
function smallCounts(
  c5: Uint32Array,
  partials: Uint32Array[],
  pool: number,
  buffers: SharedBufferLease,
): { c3: Uint32Array; c4: Uint32Array; max: number[] } {
  addInto(c5, partials);
  divideCounts(c5, 5);
  const c4 = buffers.u32(BINOM[pool]![4]!);
  pushDown(c5, c4, 4, pool, allTops(pool, 5));
  divideCounts(c4, 4);
  const c3 = buffers.u32(BINOM[pool]![3]!);
  pushDown(c4, c3, 3, pool, allTops(pool, 4));
  divideCounts(c3, 3);
  return { c3, c4, max: [0, 0, 0, maxOf(c3), maxOf(c4), maxOf(c5)] };
}

/** The payout-folded zeta transform `y6` over the count tables: small layers here, the 6-set layer in parts. */
export async function foldTables(
  counts: CountTables,
  weights: Weights,
  plan: BuildPlan = INLINE_BUILD,
  buffers: SharedBufferLease = new SharedBufferLease(null),
): Promise<Tables> {
  const { pool, c6 } = counts;
  const parts = Math.max(1, plan.parts);
  const n6 = c6.length;
  const beta = weights.beta;
  const y5 = foldFiveSets(counts, beta, buffers);
  const y6 = buffers.f64(n6);
  await plan.run(
    splitTops(pool, parts, 6).map((tops) => ({
      op: 'zeta' as const,
      prev: y5,
      c: c6,
      beta: beta[6]!,
      out: y6,
      k: 6,
      pool,
      tops,
    })),
  );

  return { ...counts, y6 };
}

/** The folded layers y3..y5 of `foldTables` (small: made in the calling thread); y5 is returned. */
export function foldFiveSets(
  counts: Pick<CountTables, 'pool' | 'c3' | 'c4' | 'c5'>,
  beta: Float64Array,
  buffers: SharedBufferLease,
): Float64Array {
  const { pool, c3, c4, c5 } = counts;
  const y3 = new Float64Array(c3.length);
  for (let i = 0; i < c3.length; i++) y3[i] = beta[3]! * c3[i]!;
  const y4 = new Float64Array(c4.length);
  zetaLayer(y3, c4, beta[4]!, y4, 4, pool, allTops(pool, 4));
  const y5 = buffers.f64(c5.length);
  zetaLayer(y4, c5, beta[5]!, y5, 5, pool, allTops(pool, 5));
  return y5;
}

/**
 * Adds the per-tier 6-set transforms used when many draws qualify: z_j = Σ over the 6-set's
 * j-subsets, each counted (6−j)! times. The 5-set layers run here, the three 6-set layers in parts.
 * Cost ≈ 3 passes of C(P,6)·6 loads and 3·4·C(P,6) bytes (≈ 100 MB at P=45). Values ≤ 24·20·T, so
 * u32 holds them for T < 8.9M.
 */
export async function addTierTables(
  t: Tables,
  plan: BuildPlan = INLINE_BUILD,
  buffers: SharedBufferLease = new SharedBufferLease(null),
): Promise<void> {
  const pool = t.pool;
  const n6 = t.c6.length;
  const n5 = t.c5.length;
  // tier 4 needs Σ over 4-subsets on the 5-sets; tier 3 Σ over 3-subsets, via the 4-sets
  const f5of4 = buffers.u32(n5, false);
  zetaLayer(t.c4, t.c5, 0, f5of4, 5, pool, allTops(pool, 5));
  const f4of3 = new Uint32Array(t.c4.length);
  zetaLayer(t.c3, t.c4, 0, f4of3, 4, pool, allTops(pool, 4));
  const f5of3 = buffers.u32(n5, false);
  zetaLayer(f4of3, t.c5, 0, f5of3, 5, pool, allTops(pool, 5));
  const tiers = buffers.u32(4 * n6, false);
  // tier-major order: piece i of every tier lands on the same part (i mod parts), so no two threads
  // write the same cache lines
  const split = splitTops(pool, Math.max(1, plan.parts), 6);
  const ops: BuildOp[] = [];
  for (const [prev, offset] of [
    [f5of3, 0],
    [f5of4, 1],
    [t.c5, 2],
  ] as const) {
    for (const tops of split) {
      ops.push({
        op: 'zeta',
        prev,
        c: t.c6,
        beta: 0,
        out: tiers,
        stride: 4,
        offset,
        k: 6,
        pool,
        tops,
      });
    }
  }
  const c6 = t.c6;
  for (let r = 0; r < n6; r++) tiers[4 * r + 3] = c6[r]!;
  await plan.run(ops);
  t.tiers = tiers;
}

function maxOf(a: Uint32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m;
}

/** target[i] += Σ partials[i] (the partial tables of a split step). */
function addInto(target: Uint32Array, partials: Uint32Array[]): void {
  for (const p of partials) for (let i = 0; i < target.length; i++) target[i] = target[i]! + p[i]!;
}
