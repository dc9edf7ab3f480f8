import { HotDraws, type LiabilityInput, type RangeTuning } from './liability';
import { BINOM, loadRankTerms, PICK, ticketRank } from './model';

/**
 * Which tickets the liability limit refuses in sales order — the decisions only, without the draw
 * each refused ticket would breach (`sellInOrder` gives those, for the refused rows' file).
 *
 * As `sellInOrder`, ranges of tickets are added to the hot draws through their k-subset counts and
 * split where some draw might not fit. What makes it fast once the hot draws fill up is a set of
 * *closed subsets*: when a hot draw's room (limit − total) is below the m-match payout, every
 * m-subset of it is closed — a ticket holding a closed m-subset shares at least m numbers with that
 * draw and would take it past the limit (payouts grow with the matches). Room only shrinks, so a
 * ticket that holds a closed subset now is refused at its turn too: each range first sets those
 * aside with ~100 lookups a ticket, and the rest are often accepted together. Exact only for
 * payouts that do not fall as matches grow: for others the caller uses `sellInOrder`.
 */
export interface SalesOrderResult {
  refused: Uint8Array;
  refusedCount: number;
  /** Per hot draw, its total with the accepted tickets (units). */
  hotTotals: Float64Array;
}

/** Whether the closed-subset test is exact for these payouts: w3 ≤ w4 ≤ … ≤ w7. */
export function payoutsGrowWithMatches(w: ArrayLike<number>): boolean {
  for (let m = 4; m <= 7; m++) if (w[m]! < w[m - 1]!) return false;
  return true;
}

/** `pause` as `sellInOrder`'s: awaited between ranges with the tickets decided so far. */
export async function acceptInOrder(
  input: LiabilityInput,
  pause: (decided: number) => Promise<void> = () => Promise.resolve(),
): Promise<SalesOrderResult> {
  const { tickets, count, pool, limit, hot } = input;
  const nHot = hot.length / PICK;
  // a range costs ~100 lookups per hot draw to add up, so ranges grow with the hot draws, and a
  // range is checked ticket by ticket rather than split once that costs about as much
  const tuning: RangeTuning = {
    chunk: Math.min(65_536, Math.max(Math.min(8192, 8 * nHot), nHot >> 4)),
    leafWork: nHot < 100_000 ? 1 << 16 : 1 << 18,
    minRange: 16,
    ...input.tuning,
  };
  const draws = new HotDraws(input);
  const { w } = draws;
  if (!payoutsGrowWithMatches(w))
    throw new Error('acceptInOrder needs payouts growing with matches');
  const cur = new Float64Array(nHot);
  const refused = new Uint8Array(count);
  let refusedCount = 0;
  const closed = new ClosedSubsets(pool);
  // per hot draw, the fewest matches whose payout no longer fits its room (8: none)
  const level = new Uint8Array(nHot).fill(8);
  const relevel = (d: number) => {
    const room = limit - cur[d]!;
    let m = 3;
    while (m <= 7 && room >= w[m]!) m++;
    if (m < level[d]!) {
      // a ticket sharing more numbers with d holds some of its m-subsets too
      closed.close(hot, d * PICK, m);
      level[d] = m;
    }
  };
  for (let d = 0; d < nHot; d++) relevel(d);
  const adds: Float64Array[] = [];
  /** Payouts of the tickets of [from, to) not refused to every hot draw, into `add`. */
  const payoutsOf = (from: number, to: number, add: Float64Array) =>
    draws.payoutsOf(from, to, add, refused);
  const payoutTo = (t: number, d: number) => draws.payoutTo(t, d);
  const refuse = (t: number) => {
    refused[t] = 1;
    refusedCount++;
  };

  const processRange = (from: number, to: number, depth: number) => {
    // what is refused whatever comes before it
    for (let t = from; t < to; t++) if (!refused[t] && closed.holds(tickets, t * PICK)) refuse(t);
    const add = (adds[depth] ??= new Float64Array(nHot));
    payoutsOf(from, to, add);
    const critical: number[] = [];
    for (let d = 0; d < nHot; d++) if (cur[d]! + add[d]! > limit) critical.push(d);
    if (critical.length === 0) {
      for (let d = 0; d < nHot; d++) {
        if (add[d] === 0) continue;
        cur[d] = cur[d]! + add[d]!;
        relevel(d);
      }
      return;
    }
    const size = to - from;
    if (size > tuning.minRange && size * critical.length > tuning.leafWork) {
      const mid = from + Math.floor(size / 2);
      processRange(from, mid, depth + 1);
      processRange(mid, to, depth + 1);
      return;
    }
    // ticket by ticket: the closed subsets say which are refused (a draw that is not critical
    // cannot be breached inside this range, so only the critical ones need their totals kept)
    const isCritical = new Uint8Array(nHot);
    for (const d of critical) isCritical[d] = 1;
    const refusedHere: number[] = [];
    for (let t = from; t < to; t++) {
      if (refused[t]) continue;
      if (closed.holds(tickets, t * PICK)) {
        refuse(t);
        refusedHere.push(t);
        continue;
      }
      for (const d of critical) {
        const pay = payoutTo(t, d);
        if (pay === 0) continue;
        cur[d] = cur[d]! + pay;
        relevel(d);
      }
    }
    // the others take the range's payouts, less those of the tickets refused here
    if (refusedHere.length > 64) payoutsOf(from, to, add);
    for (let d = 0; d < nHot; d++) {
      if (isCritical[d]) continue;
      let total = cur[d]! + add[d]!;
      if (refusedHere.length <= 64) for (const t of refusedHere) total -= payoutTo(t, d);
      if (total === cur[d]) continue;
      cur[d] = total;
      relevel(d);
    }
  };

  if (nHot > 0) {
    for (let from = 0; from < count; from += tuning.chunk) {
      const to = Math.min(count, from + tuning.chunk);
      processRange(from, to, 0);
      await pause(to);
    }
  }
  return { refused, refusedCount, hotTotals: cur };
}

/**
 * The closed k-subsets (k = 3..7) by colex rank: one byte each for k ≤ 6 (C(P,6) bytes at most:
 * 14 MB at P=49), one bit each for the 7-subsets (the draws themselves).
 */
class ClosedSubsets {
  private readonly byK: Uint8Array[];
  private readonly sevens: Uint8Array;
  private readonly term = new Float64Array(PICK * 8);

  constructor(pool: number) {
    this.byK = [3, 4, 5, 6].map((k) => new Uint8Array(BINOM[pool]![k]!));
    this.sevens = new Uint8Array(Math.ceil(BINOM[pool]![PICK]! / 8));
  }

  /** Closes the k-subsets of the set at sets[p..p+7) (k = 7: the set itself). */
  close(sets: Uint8Array, p: number, k: number): void {
    if (k === 7) {
      const r = ticketRank(sets, p);
      this.sevens[r >>> 3] = this.sevens[r >>> 3]! | (1 << (r & 7));
      return;
    }
    const closed = this.byK[k - 3]!;
    this.walk(sets, p, (size, r) => {
      if (size === k) closed[r] = 1;
    });
  }

  /** Whether the set at sets[p..p+7) holds a closed subset. */
  holds(sets: Uint8Array, p: number): boolean {
    const r = ticketRank(sets, p);
    if (this.sevens[r >>> 3]! & (1 << (r & 7))) return true;
    const [c3, c4, c5, c6] = this.byK as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const { term } = this;
    loadRankTerms(term, sets, p);
    for (let i0 = 0; i0 < 5; i0++) {
      const r1 = term[i0 * 8 + 1]!;
      for (let i1 = i0 + 1; i1 < 6; i1++) {
        const r2 = r1 + term[i1 * 8 + 2]!;
        for (let i2 = i1 + 1; i2 < 7; i2++) {
          const r3 = r2 + term[i2 * 8 + 3]!;
          if (c3[r3]) return true;
          for (let i3 = i2 + 1; i3 < 7; i3++) {
            const r4 = r3 + term[i3 * 8 + 4]!;
            if (c4[r4]) return true;
            for (let i4 = i3 + 1; i4 < 7; i4++) {
              const r5 = r4 + term[i4 * 8 + 5]!;
              if (c5[r5]) return true;
              for (let i5 = i4 + 1; i5 < 7; i5++) if (c6[r5 + term[i5 * 8 + 6]!]) return true;
            }
          }
        }
      }
    }
    return false;
  }

  /** Calls `fn(k, rank)` for every k-subset (k = 3..6) of the set at sets[p..p+7). */
  private walk(sets: Uint8Array, p: number, fn: (k: number, rank: number) => void): void {
    const { term } = this;
    loadRankTerms(term, sets, p);
    for (let i0 = 0; i0 < 5; i0++) {
      const r1 = term[i0 * 8 + 1]!;
      for (let i1 = i0 + 1; i1 < 6; i1++) {
        const r2 = r1 + term[i1 * 8 + 2]!;
        for (let i2 = i1 + 1; i2 < 7; i2++) {
          const r3 = r2 + term[i2 * 8 + 3]!;
          fn(3, r3);
          for (let i3 = i2 + 1; i3 < 7; i3++) {
            const r4 = r3 + term[i3 * 8 + 4]!;
            fn(4, r4);
            for (let i4 = i3 + 1; i4 < 7; i4++) {
              const r5 = r4 + term[i4 * 8 + 5]!;
              fn(5, r5);
              for (let i5 = i4 + 1; i5 < 7; i5++) fn(6, r5 + term[i5 * 8 + 6]!);
            }
          }
        }
      }
    }
  }
}
