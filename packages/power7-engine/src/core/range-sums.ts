import { HIGH_BIT, LOW_BIT, masksOf, pop32 } from './shared-numbers';
import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from './model';
import { countedPayout, subsetWeights } from './subset-payout';

/**
 * What a range of tickets pays each hot draw of a liability-limit run (`sales-order.ts`), exactly,
 * by the size of the numbers they share (ADR 029):
 *
 * - **k < g shared numbers** from the range's k-subset counts, dense by colex rank (k = 3, 4 at
 *   P=35 with few hot draws: 236 KB, so counting a ticket and reading a draw's 70 subsets stay in
 *   the cache);
 * - **g-subsets, ticket by ticket**: the hot draws are indexed by their g-subsets, so a ticket's
 *   C(7,g) g-subsets are probed in a bitmap and each hot draw holding one gets β_g — g is the
 *   smallest size (5, 6 or 7) whose hot subsets are sparse, so a ticket finds a handful;
 * - **m > g shared numbers** (rare): a draw found through a g-subset shares m = popcount numbers;
 *   for m > g it gets, once per ticket, the rest of w_m.
 *
 * β_k (k = 3..g) solve Σ_k β_k·C(m,k) = w_m for m ≤ g (the inclusion–exclusion of the analysis'
 * fold); ρ_m = w_m − Σ_k β_k·C(m,k) for m > g. A draw's payout is Σ_{k<g} β_k·n_k + its scattered
 * sum, n_k the counts summed over its k-subsets. All in integer units: exact.
 */
export class RangeSums {
  /** Size of the subsets the hot draws are indexed by (5, 6 or 7). */
  readonly g: number;
  private readonly beta: Float64Array;
  private readonly rest = new Float64Array(8);
  /** counts[k] for k = 3..g−1 (the others empty). */
  private readonly counts: Uint32Array[];
  /** Per g-subset rank: a bit when some hot draw holds it; 1 + the draw, or −1 − its list's start. */
  private readonly has: Uint8Array;
  private readonly one: Int32Array;
  /** Lists of hot draws sharing a g-subset, each ending in −1. */
  private readonly lists: Int32Array;
  private readonly byRank = new Map<number, number>();
  /** Per hot draw, the scattered sums of the counted tickets; the draws touched, to clear them. */
  private readonly big: Float64Array;
  private readonly touched: Int32Array;
  private readonly isTouched: Uint8Array;
  private nTouched = 0;
  private readonly stamp: Int32Array;
  private serial = 0;
  /** Each hot draw's numbers as two 32-bit masks (`masksOf`). */
  private readonly hotMasks: Uint32Array;
  /** Tickets counted since the last clear (a small range is cleared by walking it again). */
  private counted = 0;
  private readonly found = new Int32Array(35);

  constructor(
    private readonly tickets: Uint8Array,
    count: number,
    private readonly hot: Uint8Array,
    pool: number,
    w: ArrayLike<number>,
    /** Forces g (tests); else chosen from a sample. */
    subsetSize?: 5 | 6 | 7,
  ) {
    const nHot = hot.length / PICK;
    this.hotMasks = masksOf(hot, nHot);
    // the subset size whose scattered hits cost least against its wider counts, from a sample
    const heldOf = [5, 6].map((k) => heldCounts(hot, nHot, pool, k));
    const hits = heldOf.map((h, i) => sampleHits(tickets, Math.min(count, SAMPLE), h, 5 + i));
    const costs = [HIT_NS * hits[0]!, WIDE_NS + HIT_NS * hits[1]!, 2 * WIDE_NS];
    const g = subsetSize ?? 5 + costs.indexOf(Math.min(...costs));
    this.g = g;
    this.beta = subsetWeights(w, g);
    for (let m = g + 1; m <= PICK; m++) {
      let r = w[m]!;
      for (let k = 3; k <= g; k++) r -= this.beta[k]! * BINOM[m]![k]!;
      this.rest[m] = r;
    }
    this.counts = [0, 1, 2, 3, 4, 5, 6].map((k) =>
      k >= 3 && k < g ? new Uint32Array(BINOM[pool]![k]!) : new Uint32Array(0),
    );
    this.big = new Float64Array(nHot);
    this.touched = new Int32Array(nHot);
    this.isTouched = new Uint8Array(nHot);
    this.stamp = new Int32Array(nHot);
    if (g === PICK) {
      for (let d = 0; d < nHot; d++) this.byRank.set(ticketRank(hot, d * PICK), d);
      this.has = new Uint8Array(0);
      this.one = new Int32Array(0);
      this.lists = new Int32Array(0);
    } else {
      // built from the hot draws' own subsets, not a pass over every g-subset of the pool
      const n = BINOM[pool]![g]!;
      const held = heldOf[g - 5]!;
      const has = new Uint8Array(Math.ceil(n / 8));
      const one = new Int32Array(n);
      const entries = nHot * BINOM[PICK]![g]!;
      const all = new Int32Array(2 * entries);
      let listed = 0;
      forEachSubset(hot, nHot, g, (d, r) => {
        has[r >>> 3]! |= 1 << (r & 7);
        if (held[r] === 1) {
          one[r] = d + 1;
          return;
        }
        if (one[r] === 0) {
          one[r] = -1 - listed;
          all.fill(-1, listed, listed + held[r]! + 1);
          listed += held[r]! + 1;
        }
        let at = -1 - one[r]!;
        while (all[at] !== -1) at++;
        all[at] = d;
      });
      const lists = all.subarray(0, listed);
      this.has = has;
      this.one = one;
      this.lists = lists;
    }
  }

  /** Counts the tickets of [from, to) whose `skip` byte is 0. */
  count(from: number, to: number, skip: Uint8Array): void {
    for (let t = from; t < to; t++) if (!skip[t]) this.add(t, 1);
  }

  /** Counts ticket t (or takes it out of the counts again: `by` −1; `clear` forgets the rest). */
  add(t: number, by: 1 | -1): void {
    const p = t * PICK;
    const { tickets, counts, found } = this;
    const n =
      this.g === 5
        ? countFive(tickets, p, counts[3]!, counts[4]!, by, this.has, found)
        : countWide(tickets, p, counts, this.g, by, this.has, found);
    this.counted += by;
    if (by < 0) return;
    if (this.g === PICK) {
      const d = this.byRank.get(ticketRank(tickets, p));
      if (d !== undefined) this.addBig(d, this.beta[PICK]!);
      return;
    }
    if (n === 0) return;
    this.serial++;
    const { one, lists, beta } = this;
    const bg = beta[this.g]!;
    // the ticket's numbers as two 32-bit masks (`masksOf`), for the matches of the draws found
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < PICK; i++) {
      lo |= LOW_BIT[tickets[p + i]!]!;
      hi |= HIGH_BIT[tickets[p + i]!]!;
    }
    for (let i = 0; i < n; i++) {
      const o = one[found[i]!]!;
      if (o > 0) this.share(lo, hi, o - 1, bg);
      else for (let at = -1 - o; lists[at]! >= 0; at++) this.share(lo, hi, lists[at]!, bg);
    }
  }

  /** A ticket (masks lo, hi) holds a g-subset of hot draw d: β_g, once the rest if they share more. */
  private share(lo: number, hi: number, d: number, bg: number): void {
    const hm = this.hotMasks;
    this.addBig(d, bg);
    const m = pop32(lo & hm[2 * d]!) + pop32(hi & hm[2 * d + 1]!);
    if (m > this.g && this.stamp[d] !== this.serial) {
      this.stamp[d] = this.serial;
      this.addBig(d, this.rest[m]!);
    }
  }

  private addBig(d: number, v: number): void {
    if (!this.isTouched[d]) {
      this.isTouched[d] = 1;
      this.touched[this.nTouched++] = d;
    }
    this.big[d] = this.big[d]! + v;
  }

  /** What the counted tickets pay hot draw d. */
  sumOf(d: number): number {
    return countedPayout(this.hot, d * PICK, this.counts, this.beta, this.g) + this.big[d]!;
  }

  /** Counts the tickets list[a..b). */
  countList(list: Int32Array, a: number, b: number): void {
    for (let k = a; k < b; k++) this.add(list[k]!, 1);
  }

  /** Forgets the counted tickets of [from, to) (those `skip` marked 0 when counted). */
  clear(from: number, to: number, skip: Uint8Array): void {
    if (!this.zeroed()) for (let t = from; t < to; t++) if (!skip[t]) this.add(t, -1);
    this.reset();
  }

  /** Forgets the counted tickets list[a..b). */
  clearList(list: Int32Array, a: number, b: number): void {
    if (!this.zeroed()) for (let k = a; k < b; k++) this.add(list[k]!, -1);
    this.reset();
  }

  /** The tables zeroed when that costs less than walking ~100 subsets a counted ticket again. */
  private zeroed(): boolean {
    let cells = 0;
    for (const c of this.counts) cells += c.length;
    if (this.counted * 64 <= cells) return false;
    for (const c of this.counts) c.fill(0);
    return true;
  }

  private reset(): void {
    this.counted = 0;
    for (let i = 0; i < this.nTouched; i++) {
      this.big[this.touched[i]!] = 0;
      this.isTouched[this.touched[i]!] = 0;
    }
    this.nTouched = 0;
  }
}

/**
 * The counting kernel for g = 5: the ticket at tickets[p..p+7)'s 35 3-subsets and 35 4-subsets
 * counted (`by`), and, when counting, its 21 5-subsets probed in `has`: the ranks of those some hot
 * draw holds into `found`, their number returned. Each rank is its prefix's plus one term, C(n−1, k)
 * from a flat table.
 */
function countFive(
  tickets: Uint8Array,
  p: number,
  c3: Uint32Array,
  c4: Uint32Array,
  by: number,
  has: Uint8Array,
  found: Int32Array,
): number {
  const c = TICKET_RANK_TERMS;
  let n = 0;
  for (let i0 = 0; i0 < 5; i0++) {
    const r1 = c[tickets[p + i0]! * 8 + 1]!;
    for (let i1 = i0 + 1; i1 < 6; i1++) {
      const r2 = r1 + c[tickets[p + i1]! * 8 + 2]!;
      for (let i2 = i1 + 1; i2 < 7; i2++) {
        const r3 = r2 + c[tickets[p + i2]! * 8 + 3]!;
        c3[r3] = c3[r3]! + by;
        for (let i3 = i2 + 1; i3 < 7; i3++) {
          const r4 = r3 + c[tickets[p + i3]! * 8 + 4]!;
          c4[r4] = c4[r4]! + by;
          if (by < 0) continue;
          for (let i4 = i3 + 1; i4 < 7; i4++) {
            const r5 = r4 + c[tickets[p + i4]! * 8 + 5]!;
            if (has[r5 >>> 3]! & (1 << (r5 & 7))) found[n++] = r5;
          }
        }
      }
    }
  }
  return n;
}

/** `countFive` for g = 6 (counts k = 3..5, probes the 6-subsets) and g = 7 (counts k = 3..6). */
function countWide(
  tickets: Uint8Array,
  p: number,
  counts: Uint32Array[],
  g: number,
  by: number,
  has: Uint8Array,
  found: Int32Array,
): number {
  const c = TICKET_RANK_TERMS;
  const c3 = counts[3]!;
  const c4 = counts[4]!;
  const c5 = counts[5]!;
  const c6 = counts[6]!;
  let n = 0;
  for (let i0 = 0; i0 < 5; i0++) {
    const r1 = c[tickets[p + i0]! * 8 + 1]!;
    for (let i1 = i0 + 1; i1 < 6; i1++) {
      const r2 = r1 + c[tickets[p + i1]! * 8 + 2]!;
      for (let i2 = i1 + 1; i2 < 7; i2++) {
        const r3 = r2 + c[tickets[p + i2]! * 8 + 3]!;
        c3[r3] = c3[r3]! + by;
        for (let i3 = i2 + 1; i3 < 7; i3++) {
          const r4 = r3 + c[tickets[p + i3]! * 8 + 4]!;
          c4[r4] = c4[r4]! + by;
          for (let i4 = i3 + 1; i4 < 7; i4++) {
            const r5 = r4 + c[tickets[p + i4]! * 8 + 5]!;
            c5[r5] = c5[r5]! + by;
            for (let i5 = i4 + 1; i5 < 7; i5++) {
              const r6 = r5 + c[tickets[p + i5]! * 8 + 6]!;
              if (g === PICK) c6[r6] = c6[r6]! + by;
              else if (by > 0 && has[r6 >>> 3]! & (1 << (r6 & 7))) found[n++] = r6;
            }
          }
        }
      }
    }
  }
  return n;
}

/** Calls fn(d, rank) for each k-subset of each of the n sets (7 ascending numbers each). */
function forEachSubset(
  sets: Uint8Array,
  n: number,
  k: number,
  fn: (d: number, rank: number) => void,
): void {
  // the k-subsets as positions in a set, once, then each rank a sum of k flat terms
  const picks: number[] = [];
  const idx = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    picks.push(...idx);
    let i = k - 1;
    while (i >= 0 && idx[i] === PICK - k + i) i--;
    if (i < 0) break;
    idx[i]!++;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1]! + 1;
  }
  const at = Int32Array.from(picks);
  const c = TICKET_RANK_TERMS;
  for (let d = 0, p = 0; d < n; d++, p += PICK) {
    for (let s = 0; s < at.length; s += k) {
      let r = 0;
      for (let i = 0; i < k; i++) r += c[sets[p + at[s + i]!]! * 8 + i + 1]!;
      fn(d, r);
    }
  }
}

/** Tickets sampled to choose the subset size, and the estimated costs (ns a ticket). */
const SAMPLE = 4096;
const HIT_NS = 20;
const WIDE_NS = 100;

/** Per k-subset rank, how many of the n sets hold it. */
function heldCounts(sets: Uint8Array, n: number, pool: number, k: number): Int32Array {
  const held = new Int32Array(BINOM[pool]![k]!);
  forEachSubset(sets, n, k, (_d, r) => held[r]!++);
  return held;
}

/** The hot draws the first n tickets find through their k-subsets, per ticket. */
function sampleHits(tickets: Uint8Array, n: number, held: Int32Array, k: number): number {
  let hits = 0;
  forEachSubset(tickets, n, k, (_t, r) => (hits += held[r]!));
  return n > 0 ? hits / n : 0;
}
