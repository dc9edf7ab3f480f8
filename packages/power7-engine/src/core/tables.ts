import { groupDraws, type GroupOp } from './distribution-group';
import { matchesRange, type MatchesOp } from './matches';
import { invariant } from './errors';
import { BINOM, PICK, ticketRank } from './model';
import { SharedBufferLease } from './shared-buffers';
import type { Weights } from './weights';

/**
 * Dense count tables indexed by colex rank, shared with the scan workers (SharedArrayBuffer).
 *
 * c[k][rank(S)] = number of tickets containing the k-set S (k = 3..6); the 7-sets are the distinct
 * tickets themselves (`ticketRanks` ascending, `ticketMult` their multiplicities). `y6` is the folded,
 * payout-weighted zeta transform on the 6-sets: for a draw D,
 *   24 · total(D) = Σ over the seven 6-subsets U of D of y6[U]  +  24 · α_7 · c7(D).
 */
export interface Tables {
  pool: number;
  c3: Uint32Array;
  c4: Uint32Array;
  c5: Uint32Array;
  c6: Uint32Array;
  y6: Float64Array;
  ticketRanks: Uint32Array;
  ticketMult: Uint32Array;
  /** max over k-sets of c_k, index k = 3..7 (bounds the per-tier counts). */
  maxCount: number[];
  /**
   * Dense mode only (many qualifying draws): per-tier transforms on the 6-sets, z_j(U) = (6-j)!·N_j(U)
   * for j = 3, 4, 5, and c6 itself, interleaved per 6-set as [z3, z4, z5, c6] at 4·rank(U): a draw's
   * N_j is 7 loads / (7-j)!, from 7 memory streams for all four tiers.
   */
  tiers?: Uint32Array;
}

/**
 * One piece of the table build. Every piece reads and writes only the arrays it is given, so the
 * pieces of one step can run on several threads at once (the arrays are SharedArrayBuffer-backed; the
 * tickets are copied to a worker once per step).
 */
export type BuildOp =
  /**
   * Colex-rank the 6-subsets of tickets [from, to) and count them into `c6`; with `ranks`, also the
   * tickets' own colex ranks, sorted ascending into `ranks` (to − from long).
   */
  | {
      op: 'count6';
      tickets: Uint8Array;
      from: number;
      to: number;
      c6: Uint32Array;
      ranks?: Uint32Array;
    }
  /** Sort ticket ranks ascending in place (`radixSort27`). */
  | { op: 'sort'; ranks: Uint32Array }
  /** The distinct tickets whose rank is in one value range (see `DistinctPiece`). */
  | DistinctPiece
  /** Scatter the (k+1)-set counts whose largest number is in `tops` onto their k-subsets. */
  | { op: 'pushDown'; from: Uint32Array; to: Uint32Array; k: number; pool: number; tops: number[] }
  /** One zeta layer (see `zetaLayer`) for the k-sets whose largest number is in `tops`. */
  | {
      op: 'zeta';
      prev: Float64Array | Uint32Array;
      c: Uint32Array;
      beta: number;
      out: Float64Array | Uint32Array;
      /** Where set r's value goes: out[r·stride + offset] (default 1, 0). */
      stride?: number;
      offset?: number;
      k: number;
      pool: number;
      tops: number[];
    }
  /** After the scan: the draws of some top numbers grouped by histogram bin (`distribution.ts`). */
  | GroupOp
  /** Exposure: some combinations' matches with the draws over a line (`matches.ts`). */
  | MatchesOp;

/**
 * The distinct ranks in [lo, hi) of the sorted runs ranks[bounds[i], bounds[i+1]), merged, with their
 * multiplicities, written to `outRanks` / `outMult` from `at` on (`at` = how many ranks of all runs
 * lie below `lo`, so the pieces never overlap); the piece's count of distinct ranks and its largest
 * multiplicity go to found[2·piece] and found[2·piece + 1].
 */
export interface DistinctPiece {
  op: 'distinct';
  ranks: Uint32Array;
  bounds: number[];
  lo: number;
  hi: number;
  at: number;
  outRanks: Uint32Array;
  outMult: Uint32Array;
  found: Uint32Array;
  piece: number;
}

/** Runs the pieces of one build step, possibly in parallel; resolves when all are done. */
export type BuildRunner = (ops: BuildOp[]) => Promise<void>;

/** Where the build runs: `parts` pieces per parallel step, handed to `run`. */
export interface BuildPlan {
  parts: number;
  run: BuildRunner;
}

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
 * The part of the tables that depends on the tickets and the pool only (not on payouts or budget), so
 * an analysis of the same tickets with other payouts can take them over (`foldTables`).
 */
export type CountTables = Omit<Tables, 'y6' | 'tiers'>;

/**
 * The first step of `countTables` done while a file was read (`countWhileReading`): every ticket's
 * 6-subsets counted into one of the partial tables `c6` (their sum is the file's c6), and every
 * ticket's colex rank, in file order (unsorted).
 */
export interface CountedTickets {
  pool: number;
  c6: Uint32Array[];
  ranks: Uint32Array;
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
  const pushes: BuildOp[] = partial5.map((to, i) => ({
    op: 'pushDown' as const,
    from: c6,
    to,
    k: 5,
    pool,
    tops: tops6[i]!,
  }));
  // with it, the parts' sorted tickets merged and de-duplicated in value ranges (piece i after push i)
  const pieces = ranks ? distinctPieces(ranks, bounds, buffers) : [];
  await plan.run([...pushes, ...pieces]);
  const { ticketRanks, ticketMult, maxC7 } = distinct ?? joinDistinctPieces(pieces, buffers);
  addInto(c5, partial5.slice(1));
  divideCounts(c5, 5);
  const c4 = buffers.u32(BINOM[pool]![4]!);
  pushDown(c5, c4, 4, pool, allTops(pool, 5));
  divideCounts(c4, 4);
  const c3 = buffers.u32(BINOM[pool]![3]!);
  pushDown(c4, c3, 3, pool, allTops(pool, 4));
  divideCounts(c3, 3);
  return {
    pool,
    c3,
    c4,
    c5,
    c6,
    ticketRanks,
    ticketMult,
    maxCount: [0, 0, 0, maxOf(c3), maxOf(c4), maxOf(c5), maxOf(c6), maxC7],
  };
}

/** The payout-folded zeta transform `y6` over the count tables: small layers here, the 6-set layer in parts. */
export async function foldTables(
  counts: CountTables,
  weights: Weights,
  plan: BuildPlan = INLINE_BUILD,
  buffers: SharedBufferLease = new SharedBufferLease(null),
): Promise<Tables> {
  const { pool, c3, c4, c5, c6 } = counts;
  const parts = Math.max(1, plan.parts);
  const n5 = c5.length;
  const n6 = c6.length;
  const beta = weights.beta;
  const y3 = new Float64Array(c3.length);
  for (let i = 0; i < c3.length; i++) y3[i] = beta[3]! * c3[i]!;
  const y4 = new Float64Array(c4.length);
  zetaLayer(y3, c4, beta[4]!, y4, 4, pool, allTops(pool, 4));
  const y5 = buffers.f64(n5);
  zetaLayer(y4, c5, beta[5]!, y5, 5, pool, allTops(pool, 5));
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

/** Every largest number a k-set can have, ascending (the whole walk in colex order). */
function allTops(pool: number, k: number): number[] {
  const tops: number[] = [];
  for (let g = k - 1; g < pool; g++) tops.push(g);
  return tops;
}

/** target[i] += Σ partials[i] (the partial tables of a split step). */
function addInto(target: Uint32Array, partials: Uint32Array[]): void {
  for (const p of partials) for (let i = 0; i < target.length; i++) target[i] = target[i]! + p[i]!;
}

/**
 * Counts the 6-subsets of tickets [from, to) into c6 (7 increments per ticket). Dropping element j
 * shifts the later ones down one position, so each subset's rank is a sum of precomputed terms.
 */
function countSixSubsets(
  tickets: Uint8Array,
  from: number,
  to: number,
  c6: Uint32Array,
  ranks: Uint32Array | undefined,
): void {
  const b = BINOM;
  for (let t = from, p = from * 7; t < to; t++, p += 7) {
    const e0 = tickets[p]! - 1;
    const e1 = tickets[p + 1]! - 1;
    const e2 = tickets[p + 2]! - 1;
    const e3 = tickets[p + 3]! - 1;
    const e4 = tickets[p + 4]! - 1;
    const e5 = tickets[p + 5]! - 1;
    const e6 = tickets[p + 6]! - 1;
    const k0 = b[e0]![1]!;
    const k1 = b[e1]![2]!;
    const k2 = b[e2]![3]!;
    const k3 = b[e3]![4]!;
    const k4 = b[e4]![5]!;
    const k5 = b[e5]![6]!;
    const j1 = b[e1]![1]!;
    const j2 = b[e2]![2]!;
    const j3 = b[e3]![3]!;
    const j4 = b[e4]![4]!;
    const j5 = b[e5]![5]!;
    const j6 = b[e6]![6]!;
    c6[j1 + j2 + j3 + j4 + j5 + j6]!++;
    c6[k0 + j2 + j3 + j4 + j5 + j6]!++;
    c6[k0 + k1 + j3 + j4 + j5 + j6]!++;
    c6[k0 + k1 + k2 + j4 + j5 + j6]!++;
    c6[k0 + k1 + k2 + k3 + j5 + j6]!++;
    c6[k0 + k1 + k2 + k3 + k4 + j6]!++;
    c6[k0 + k1 + k2 + k3 + k4 + k5]!++;
    // the ticket's own rank: every number at its own position
    if (ranks) ranks[t - from] = k0 + k1 + k2 + k3 + k4 + k5 + b[e6]![7]!;
  }
}

/**
 * The distinct tickets as ascending colex ranks with their multiplicities (duplicates collapse).
 * Ranks are < C(49,7) < 2^27, so an LSD radix sort in two passes of 14 and 13 bits orders them.
 */
function distinctTickets(
  tickets: Uint8Array,
  count: number,
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const ranks = new Uint32Array(count);
  for (let t = 0, p = 0; t < count; t++, p += PICK) ranks[t] = ticketRank(tickets, p);
  radixSort27(ranks);
  return distinctOfSorted(ranks, buffers);
}

/**
 * The pieces that de-duplicate the sorted runs ranks[bounds[i], bounds[i+1]) on the workers, one per
 * run, split at values of the first run (the runs hold random shares of the tickets, so the pieces
 * come out about even).
 */
function distinctPieces(
  ranks: Uint32Array,
  bounds: number[],
  buffers: SharedBufferLease,
): DistinctPiece[] {
  const parts = bounds.length - 1;
  const first = ranks.subarray(bounds[0]!, bounds[1]!);
  const cuts = [0];
  for (let j = 1; j < parts; j++)
    cuts.push(first.length > 0 ? first[Math.floor((first.length * j) / parts)]! : 0);
  cuts.push(2 ** 27);
  const outRanks = buffers.u32(ranks.length, false);
  const outMult = buffers.u32(ranks.length, false);
  const found = buffers.u32(2 * parts);
  return Array.from({ length: parts }, (_, piece) => {
    let at = 0;
    for (let i = 0; i < parts; i++)
      at += firstTicketAtLeast(ranks.subarray(bounds[i]!, bounds[i + 1]!), cuts[piece]!);
    return {
      op: 'distinct' as const,
      ranks,
      bounds,
      lo: cuts[piece]!,
      hi: cuts[piece + 1]!,
      at,
      outRanks,
      outMult,
      found,
      piece,
    };
  });
}

function distinctPiece(op: DistinctPiece): void {
  const { ranks, bounds, lo, hi, at, outRanks, outMult } = op;
  let merged: Uint32Array = new Uint32Array(0);
  for (let i = 0; i + 1 < bounds.length; i++) {
    const run = ranks.subarray(bounds[i]!, bounds[i + 1]!);
    const inRange = run.subarray(firstTicketAtLeast(run, lo), firstTicketAtLeast(run, hi));
    merged = i === 0 ? inRange : mergeTwo(merged, inRange);
  }
  let d = at - 1;
  let previous = -1;
  let most = 0;
  for (let k = 0; k < merged.length; k++) {
    const v = merged[k]!;
    if (v !== previous) {
      outRanks[++d] = v;
      outMult[d] = 0;
      previous = v;
    }
    const m = ++outMult[d]!;
    if (m > most) most = m;
  }
  op.found[2 * op.piece] = d + 1 - at;
  op.found[2 * op.piece + 1] = most;
}

/** The distinct tickets from the pieces' outputs, in value order. */
function joinDistinctPieces(
  pieces: DistinctPiece[],
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const found = pieces[0]!.found;
  let distinct = 0;
  let maxC7 = 0;
  for (const { piece } of pieces) {
    distinct += found[2 * piece]!;
    maxC7 = Math.max(maxC7, found[2 * piece + 1]!);
  }
  const ticketRanks = buffers.u32(distinct, false);
  const ticketMult = buffers.u32(distinct, false);
  let written = 0;
  for (const { at, outRanks, outMult, piece } of pieces) {
    const n = found[2 * piece]!;
    ticketRanks.set(outRanks.subarray(at, at + n), written);
    ticketMult.set(outMult.subarray(at, at + n), written);
    written += n;
  }
  return { ticketRanks, ticketMult, maxC7 };
}

function mergeTwo(x: Uint32Array, y: Uint32Array): Uint32Array {
  const out = new Uint32Array(x.length + y.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < x.length && j < y.length) out[k++] = x[i]! <= y[j]! ? x[i++]! : y[j++]!;
  while (i < x.length) out[k++] = x[i++]!;
  while (j < y.length) out[k++] = y[j++]!;
  return out;
}

/** The distinct ranks of an ascending array, with their multiplicities and the largest of them. */
function distinctOfSorted(
  ranks: Uint32Array,
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const count = ranks.length;
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || ranks[i] !== ranks[i - 1]) distinct++;
  const ticketRanks = buffers.u32(distinct, false);
  const ticketMult = buffers.u32(distinct);
  let maxC7 = 0;
  for (let i = 0, d = -1; i < count; i++) {
    if (i === 0 || ranks[i] !== ranks[i - 1]) {
      d++;
      ticketRanks[d] = ranks[i]!;
    }
    ticketMult[d]!++;
    if (ticketMult[d]! > maxC7) maxC7 = ticketMult[d]!;
  }
  return { ticketRanks, ticketMult, maxC7 };
}

/** Index of the first distinct ticket whose colex rank is ≥ `rank` (binary search, ranks ascending). */
export function firstTicketAtLeast(ticketRanks: Uint32Array, rank: number): number {
  let l = 0;
  let h = ticketRanks.length;
  while (l < h) {
    const mid = (l + h) >>> 1;
    if (ticketRanks[mid]! < rank) l = mid + 1;
    else h = mid;
  }
  return l;
}

/** Sorts values < 2^27 ascending in place (two stable counting passes). */
export function radixSort27(keys: Uint32Array): void {
  const n = keys.length;
  const low = new Uint32Array(1 << 14);
  const high = new Uint32Array(1 << 13);
  let all = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    all |= k;
    low[k & 0x3fff]!++;
    high[(k >>> 14) & 0x1fff]!++;
  }
  invariant(all >>> 27 === 0, 'radix sort key out of range');
  for (let i = 0, s = 0; i < low.length; i++) {
    const c = low[i]!;
    low[i] = s;
    s += c;
  }
  for (let i = 0, s = 0; i < high.length; i++) {
    const c = high[i]!;
    high[i] = s;
    s += c;
  }
  const tmp = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    tmp[low[k & 0x3fff]!++] = k;
  }
  for (let i = 0; i < n; i++) {
    const k = tmp[i]!;
    keys[high[k >>> 14]!++] = k;
  }
}

/**
 * Walks the m-subsets O of [0, n) in colex order (or only those whose largest number is `top`) and,
 * for each, the k = m+1 sets {a} ∪ O with a < o_0. Both run in colex order, so their ranks are plain
 * counters (starting at `firstRankO` and `firstRank`). For every O it fills `base[j]` with the rank of
 * ({a} ∪ O) \ {o_j} minus a, so the inner loop over a reads and writes contiguous memory.
 */
class OuterWalk {
  readonly o: Int32Array;
  readonly base: Float64Array;
  /** Colex rank of the first O among the m-sets, and of the first {a} ∪ O among the (m+1)-sets. */
  readonly firstRankO: number;
  readonly firstRank: number;
  private readonly m: number;
  /** How many of the lowest elements move (m, or m−1 with the top fixed). */
  private readonly free: number;
  private readonly empty: boolean;
  private started = false;

  constructor(m: number, n: number, top?: number) {
    this.m = m;
    this.o = new Int32Array(m + 1);
    this.base = new Float64Array(m);
    if (top === undefined) {
      this.free = m;
      this.o[m] = n;
      this.empty = m > n;
      this.firstRankO = 0;
      this.firstRank = 0;
    } else {
      this.free = m - 1;
      this.o[m - 1] = top;
      this.empty = top < m - 1 || top >= n;
      this.firstRankO = BINOM[top]![m]!;
      this.firstRank = BINOM[top]![m + 1]!;
    }
    for (let i = 0; i < this.free; i++) this.o[i] = i;
  }

  next(): boolean {
    const o = this.o;
    const free = this.free;
    if (!this.started) {
      this.started = true;
      if (this.empty) return false;
    } else {
      let i = 0;
      for (; i < free; i++) {
        if (o[i]! + 1 < o[i + 1]!) break;
      }
      if (i === free) return false;
      o[i]!++;
      for (let j = 0; j < i; j++) o[j] = j;
    }
    this.computeBase();
    return true;
  }

  /** Recomputes `base` for the current O (also used after setting `o` by hand). */
  computeBase(): void {
    const o = this.o;
    const m = this.m;
    const base = this.base;
    // suffix: Σ_{i>j} C(o_i, i+1); prefix: Σ_{i<j} C(o_i, i+2)
    let suf = 0;
    for (let j = m - 1; j >= 0; j--) {
      base[j] = suf;
      suf += BINOM[o[j]!]![j + 1]!;
    }
    let pre = 0;
    for (let j = 0; j < m; j++) {
      base[j] = base[j]! + pre;
      pre += BINOM[o[j]!]![j + 2]!;
    }
  }
}

/**
 * Scatters the counts of the (k+1)-sets with largest number in `tops` onto their k-subsets:
 * to(S) += Σ_{U ⊃ S} from(U). After all parts, `divideCounts` turns the sums into c_k (each ticket
 * containing S is counted once per extra element it has). Cost C(P, k+1)·(k+1).
 */
function pushDown(
  from: Uint32Array,
  to: Uint32Array,
  k: number,
  pool: number,
  tops: number[],
): void {
  for (const g of tops) {
    const walk = new OuterWalk(k, pool, g);
    const base = walk.base;
    const o = walk.o;
    let r = walk.firstRank; // rank of {a} ∪ O among the (k+1)-sets
    let rankO = walk.firstRankO; // rank of O among the k-sets
    while (walk.next()) {
      const top = o[0]!;
      let acc = 0;
      if (k === 5) {
        // the big layer (from the 6-sets), unrolled and branch-free: most counts are 0 or 1, so a
        // "skip zeros" test would be mispredicted about half the time
        const b0 = base[0]!;
        const b1 = base[1]!;
        const b2 = base[2]!;
        const b3 = base[3]!;
        const b4 = base[4]!;
        for (let a = 0; a < top; a++) {
          const v = from[r++]!;
          acc += v;
          to[b0 + a]! += v;
          to[b1 + a]! += v;
          to[b2 + a]! += v;
          to[b3 + a]! += v;
          to[b4 + a]! += v;
        }
      } else {
        for (let a = 0; a < top; a++) {
          const v = from[r++]!;
          acc += v;
          for (let j = 0; j < k; j++) to[base[j]! + a]! += v;
        }
      }
      to[rankO] = to[rankO]! + acc;
      rankO++;
    }
  }
}

/** c_k(S) = (Σ_{U ⊃ S} c_{k+1}(U)) / (7−k), checking the division is exact. */
function divideCounts(to: Uint32Array, k: number): void {
  const div = PICK - k;
  for (let i = 0; i < to.length; i++) {
    const v = to[i]!;
    invariant(v % div === 0, 'subset count not divisible');
    to[i] = v / div;
  }
}

/**
 * y_k(S) = β'_k c_k(S) + Σ over the k (k-1)-subsets R of S of y_{k-1}(R) for the k-sets S whose
 * largest number is in `tops`: the layered zeta transform with the payouts folded in. Cost C(P, k)·k
 * loads, contiguous; parts with different tops write disjoint ranges of `out`.
 */
function zetaLayer(
  prev: Float64Array | Uint32Array,
  c: Uint32Array,
  beta: number,
  out: Float64Array | Uint32Array,
  k: number,
  pool: number,
  tops: number[],
  stride = 1,
  offset = 0,
): void {
  const m = k - 1;
  for (const g of tops) {
    const walk = new OuterWalk(m, pool, g);
    const base = walk.base;
    const o = walk.o;
    let r = walk.firstRank;
    let rankO = walk.firstRankO;
    while (walk.next()) {
      const top = o[0]!;
      const fixed = prev[rankO]!;
      if (m === 5) {
        // the big layer (the 6-sets), unrolled
        const b0 = base[0]!;
        const b1 = base[1]!;
        const b2 = base[2]!;
        const b3 = base[3]!;
        const b4 = base[4]!;
        for (let a = 0; a < top; a++, r++) {
          out[r * stride + offset] =
            beta * c[r]! +
            fixed +
            prev[b0 + a]! +
            prev[b1 + a]! +
            prev[b2 + a]! +
            prev[b3 + a]! +
            prev[b4 + a]!;
        }
      } else {
        for (let a = 0; a < top; a++) {
          let s = beta * c[r]! + fixed;
          for (let j = 0; j < m; j++) s += prev[base[j]! + a]!;
          out[r++ * stride + offset] = s;
        }
      }
      rankO++;
    }
  }
}

/**
 * Estimates the share of draws that qualify from `samples` random draws, each computed exactly from
 * the tables (7 six-subset loads + a binary search for c7). Used to choose sparse or dense per-tier
 * counting before the scan.
 */
export function estimateQualifyingShare(
  t: Tables,
  alpha7: number,
  lo: number,
  hi: number,
  samples = 256,
): number {
  const pool = t.pool;
  let seed = 0x9e3779b9;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const el: number[] = [];
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    el.length = 0;
    while (el.length < 7) {
      const v = Math.floor(rnd() * pool);
      if (!el.includes(v)) el.push(v);
    }
    el.sort((a, b) => a - b);
    let sum = 0;
    for (let drop = 0; drop < 7; drop++) {
      let r = 0;
      for (let i = 0, pos = 1; i < 7; i++) {
        if (i === drop) continue;
        r += BINOM[el[i]!]![pos++]!;
      }
      sum += t.y6[r]!;
    }
    let rank = 0;
    for (let i = 0; i < 7; i++) rank += BINOM[el[i]!]![i + 1]!;
    const at = firstTicketAtLeast(t.ticketRanks, rank);
    const c7 = t.ticketRanks[at] === rank ? t.ticketMult[at]! : 0;
    const total = sum / 24 + alpha7 * c7;
    if (total >= lo && total <= hi) hits++;
  }
  return hits / samples;
}

/**
 * Winners of one draw per match type 3..7 (index 0..4) from the count tables: N_j = Σ over its
 * j-subsets S of c_j(S) counts each ticket with m ≥ j matches C(m, j) times, so the exact counts come
 * by inclusion–exclusion from m = 7 down. ~100 lookups: for the few draws a caller lists (the best
 * ones), not for a scan.
 */
export function winnersFromTables(t: CountTables, numbers: readonly number[]): number[] {
  const el = numbers.map((n) => n - 1);
  const bySize = [t.c3, t.c3, t.c3, t.c3, t.c4, t.c5, t.c6];
  const n = [0, 0, 0, 0, 0, 0, 0];
  for (let mask = 1; mask < 1 << PICK; mask++) {
    let size = 0;
    let rank = 0;
    for (let i = 0; i < PICK; i++) if (mask & (1 << i)) rank += BINOM[el[i]!]![++size]!;
    if (size >= 3 && size <= 6) n[size] = n[size]! + bySize[size]![rank]!;
  }
  let rank7 = 0;
  for (let i = 0; i < PICK; i++) rank7 += BINOM[el[i]!]![i + 1]!;
  const at = firstTicketAtLeast(t.ticketRanks, rank7);
  const e7 = t.ticketRanks[at] === rank7 ? t.ticketMult[at]! : 0;
  const e6 = n[6]! - 7 * e7;
  const e5 = n[5]! - 6 * e6 - 21 * e7;
  const e4 = n[4]! - 5 * e5 - 15 * e6 - 35 * e7;
  const e3 = n[3]! - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
  return [e3, e4, e5, e6, e7];
}
