import { invariant } from './errors';
import { BINOM, PICK } from './model';
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
   * for j = 3, 4, 5 (j = 6 is c6 itself), so a draw's N_j is 7 contiguous loads / (7-j)!.
   */
  z3?: Uint32Array;
  z4?: Uint32Array;
  z5?: Uint32Array;
}

/**
 * Adds the per-tier 6-set transforms used when many draws qualify. Cost ≈ 3 passes of C(P,6)·6 loads
 * and 3·4·C(P,6) bytes (≈ 100 MB at P=45). Values ≤ 24·20·T, so u32 holds them for T < 8.9M.
 */
export function addTierTables(t: Tables): void {
  const pool = t.pool;
  const n5 = t.c5.length;
  const n6 = t.c6.length;
  const f5 = new Uint32Array(n5);
  // tier 5: z5 = Σ over 5-subsets of c5
  t.z5 = sharedU32(n6);
  zetaLayer(t.c5, t.c6, 0, t.z5, 6, pool);
  // tier 4
  zetaLayer(t.c4, t.c5, 0, f5, 5, pool);
  t.z4 = sharedU32(n6);
  zetaLayer(f5, t.c6, 0, t.z4, 6, pool);
  // tier 3
  const f4 = new Uint32Array(t.c4.length);
  zetaLayer(t.c3, t.c4, 0, f4, 4, pool);
  zetaLayer(f4, t.c5, 0, f5, 5, pool);
  t.z3 = sharedU32(n6);
  zetaLayer(f5, t.c6, 0, t.z3, 6, pool);
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
    let l = 0;
    let h = t.ticketRanks.length;
    while (l < h) {
      const mid = (l + h) >>> 1;
      if (t.ticketRanks[mid]! < rank) l = mid + 1;
      else h = mid;
    }
    const c7 = t.ticketRanks[l] === rank ? t.ticketMult[l]! : 0;
    const total = sum / 24 + alpha7 * c7;
    if (total >= lo && total <= hi) hits++;
  }
  return hits / samples;
}

function sharedU32(n: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(Math.max(4, n * 4)));
}
function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(8, n * 8)));
}

/**
 * Walks the m-subsets O of [0, n) in colex order and, for each, the k = m+1 sets {a} ∪ O with a < o_0.
 * Both run in colex order, so their ranks are plain counters. For every O it fills `base[j]` with the
 * rank of ({a} ∪ O) \ {o_j} minus a, so the inner loop over a reads and writes contiguous memory.
 * Returns false when exhausted.
 */
export class OuterWalk {
  readonly o: Int32Array;
  readonly base: Float64Array;
  private readonly m: number;
  private readonly n: number;
  private started = false;

  constructor(m: number, n: number) {
    this.m = m;
    this.n = n;
    this.o = new Int32Array(m + 1);
    this.base = new Float64Array(m);
    for (let i = 0; i < m; i++) this.o[i] = i;
    this.o[m] = n;
  }

  next(): boolean {
    const o = this.o;
    const m = this.m;
    if (!this.started) {
      this.started = true;
      if (m > this.n) return false;
    } else {
      let i = 0;
      for (; i < m; i++) {
        if (o[i]! + 1 < o[i + 1]!) break;
      }
      if (i === m) return false;
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
 * Pushes the counts of the (k+1)-sets down to the k-sets: c_k(S) = Σ_{U ⊃ S} c_{k+1}(U) / (7-k)
 * (each ticket containing S is counted once per extra element it has). Cost C(P, k+1)·(k+1).
 */
function pushDown(from: Uint32Array, to: Uint32Array, k: number, pool: number): void {
  const walk = new OuterWalk(k, pool);
  const base = walk.base;
  const o = walk.o;
  let r = 0; // rank of {a} ∪ O among the (k+1)-sets
  let rankO = 0; // rank of O among the k-sets
  while (walk.next()) {
    const top = o[0]!;
    let acc = 0;
    for (let a = 0; a < top; a++) {
      const v = from[r++]!;
      if (v !== 0) {
        acc += v;
        for (let j = 0; j < k; j++) to[base[j]! + a]! += v;
      }
    }
    to[rankO] = to[rankO]! + acc;
    rankO++;
  }
  const div = PICK - k;
  for (let i = 0; i < to.length; i++) {
    const v = to[i]!;
    invariant(v % div === 0, 'subset count not divisible');
    to[i] = v / div;
  }
}

/**
 * y_k(S) = β'_k c_k(S) + Σ over the k (k-1)-subsets R of S of y_{k-1}(R): the layered zeta transform
 * with the payouts folded in. Cost C(P, k)·k loads, contiguous.
 */
function zetaLayer(
  prev: Float64Array | Uint32Array,
  c: Uint32Array,
  beta: number,
  out: Float64Array | Uint32Array,
  k: number,
  pool: number,
): void {
  const m = k - 1;
  const walk = new OuterWalk(m, pool);
  const base = walk.base;
  const o = walk.o;
  let r = 0;
  let rankO = 0;
  while (walk.next()) {
    const top = o[0]!;
    const fixed = prev[rankO]!;
    for (let a = 0; a < top; a++) {
      let s = beta * c[r]! + fixed;
      for (let j = 0; j < m; j++) s += prev[base[j]! + a]!;
      out[r++] = s;
    }
    rankO++;
  }
}

/**
 * Builds every table from the tickets (7 ascending 1-based numbers each, `count` tickets).
 * Cost: sort of T ranks + 7T increments + O(C(P,6)·6) contiguous passes. Memory at P=45: ~100 MB.
 */
export function buildTables(
  tickets: Uint8Array,
  count: number,
  pool: number,
  weights: Weights,
): Tables {
  const n6 = BINOM[pool]![6]!;
  const c6 = sharedU32(n6);
  const ranks = new Uint32Array(count);
  const b = BINOM;
  for (let t = 0, p = 0; t < count; t++, p += 7) {
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
    const k6 = b[e6]![7]!;
    ranks[t] = k0 + k1 + k2 + k3 + k4 + k5 + k6;
    // the seven 6-subsets: dropping element j shifts the later ones down one position
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
  }
  ranks.sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || ranks[i] !== ranks[i - 1]) distinct++;
  const ticketRanks = sharedU32(distinct);
  const ticketMult = sharedU32(distinct);
  let maxC7 = 0;
  for (let i = 0, d = -1; i < count; i++) {
    if (i === 0 || ranks[i] !== ranks[i - 1]) {
      d++;
      ticketRanks[d] = ranks[i]!;
    }
    ticketMult[d]!++;
    if (ticketMult[d]! > maxC7) maxC7 = ticketMult[d]!;
  }
  const c5 = sharedU32(BINOM[pool]![5]!);
  const c4 = sharedU32(BINOM[pool]![4]!);
  const c3 = sharedU32(BINOM[pool]![3]!);
  pushDown(c6, c5, 5, pool);
  pushDown(c5, c4, 4, pool);
  pushDown(c4, c3, 3, pool);

  const beta = weights.beta;
  const y3 = new Float64Array(c3.length);
  for (let i = 0; i < c3.length; i++) y3[i] = beta[3]! * c3[i]!;
  const y4 = new Float64Array(c4.length);
  zetaLayer(y3, c4, beta[4]!, y4, 4, pool);
  const y5 = new Float64Array(c5.length);
  zetaLayer(y4, c5, beta[5]!, y5, 5, pool);
  const y6 = sharedF64(n6);
  zetaLayer(y5, c6, beta[6]!, y6, 6, pool);

  const max = (a: Uint32Array) => {
    let m = 0;
    for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
    return m;
  };
  return {
    pool,
    c3,
    c4,
    c5,
    c6,
    y6,
    ticketRanks,
    ticketMult,
    maxCount: [0, 0, 0, max(c3), max(c4), max(c5), max(c6), maxC7],
  };
}
