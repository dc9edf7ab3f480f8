import { invariant } from './errors';
import { BINOM, PICK, TICKET_RANK_TERMS } from './model';

/**
 * Counts the 6-subsets of tickets [from, to) into c6 (7 increments per ticket). Dropping element j
 * shifts the later ones down one position, so each subset's rank is a sum of precomputed terms, read
 * from the flat `TICKET_RANK_TERMS` (C(v − 1, k) at v·8 + k: integer loads from one typed array, not
 * a row of `BINOM` per number).
 */
export function countSixSubsets(
  tickets: Uint8Array,
  from: number,
  to: number,
  c6: Uint32Array,
  ranks: Uint32Array | undefined,
): void {
  const c = TICKET_RANK_TERMS;
  for (let t = from, p = from * 7; t < to; t++, p += 7) {
    const v0 = tickets[p]! * 8;
    const v1 = tickets[p + 1]! * 8;
    const v2 = tickets[p + 2]! * 8;
    const v3 = tickets[p + 3]! * 8;
    const v4 = tickets[p + 4]! * 8;
    const v5 = tickets[p + 5]! * 8;
    const v6 = tickets[p + 6]! * 8;
    const k0 = c[v0 + 1]!;
    const k1 = c[v1 + 2]!;
    const k2 = c[v2 + 3]!;
    const k3 = c[v3 + 4]!;
    const k4 = c[v4 + 5]!;
    const k5 = c[v5 + 6]!;
    const j1 = c[v1 + 1]!;
    const j2 = c[v2 + 2]!;
    const j3 = c[v3 + 3]!;
    const j4 = c[v4 + 4]!;
    const j5 = c[v5 + 5]!;
    const j6 = c[v6 + 6]!;
    c6[j1 + j2 + j3 + j4 + j5 + j6]!++;
    c6[k0 + j2 + j3 + j4 + j5 + j6]!++;
    c6[k0 + k1 + j3 + j4 + j5 + j6]!++;
    c6[k0 + k1 + k2 + j4 + j5 + j6]!++;
    c6[k0 + k1 + k2 + k3 + j5 + j6]!++;
    c6[k0 + k1 + k2 + k3 + k4 + j6]!++;
    c6[k0 + k1 + k2 + k3 + k4 + k5]!++;
    // the ticket's own rank: every number at its own position
    if (ranks) ranks[t - from] = k0 + k1 + k2 + k3 + k4 + k5 + c[v6 + 7]!;
  }
}

/** Every largest number a k-set can have, ascending (the whole walk in colex order). */
export function allTops(pool: number, k: number): number[] {
  const tops: number[] = [];
  for (let g = k - 1; g < pool; g++) tops.push(g);
  return tops;
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
export function pushDown(
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
export function divideCounts(to: Uint32Array, k: number): void {
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
export function zetaLayer(
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
