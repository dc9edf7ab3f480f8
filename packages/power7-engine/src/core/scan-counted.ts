import { BINOM } from './model';
import type { RunningStats, TopDraws } from './scan';
import { firstTicketAtLeast } from './ticket-ranks';

/** Lexicographic order key of seven ascending 0-based numbers (smallest first), < 2^53. */
export function lexKey(a: number, o: Int32Array): number {
  return (((((a * 64 + o[0]!) * 64 + o[1]!) * 64 + o[2]!) * 64 + o[3]!) * 64 + o[4]!) * 64 + o[5]!;
}

/**
 * `scanTop` for a scan that records no draw and counts the totals (`ScanParams.exactUpTo`, `exact`
 * given): the histogram and the qualifying count are made from those counts after the scan
 * (`countedStats`), and a draw goes to the best ones by one test of its total against the window
 * [max(lo, floor), hi] — no branch per draw on the budget, which about half the draws pass and
 * half fail (each a mispredicted branch), and no histogram bin per draw. Same loops as `scanTop`.
 */
export function scanTopCounted(
  g: number,
  y6: Float64Array,
  ticketRanks: Uint32Array,
  ticketMult: Uint32Array,
  alpha7: number,
  lo: number,
  hi: number,
  st: RunningStats,
  best: TopDraws,
  o: Int32Array,
  exact: Uint32Array,
): void {
  let { min, max, worstRank, worstLex } = st;
  // every total is at most exact.length − 1: a larger budget is that bound
  const top = Math.min(hi, exact.length - 1);
  let from = Math.max(lo, best.floor);
  const nT = ticketRanks.length;
  const cg6 = BINOM[g]![6]!;
  let r = BINOM[g]![7]!;
  let tp = firstTicketAtLeast(ticketRanks, r);
  let nextT = tp < nT ? ticketRanks[tp]! : -1;
  o[5] = g;
  let rank5 = 0;
  for (let o4 = 4; o4 < g; o4++) {
    o[4] = o4;
    const u4 = BINOM[o4]![5]!;
    const v4 = BINOM[o4]![6]!;
    for (let o3 = 3; o3 < o4; o3++) {
      o[3] = o3;
      const u3 = BINOM[o3]![4]!;
      const v3 = BINOM[o3]![5]!;
      for (let o2 = 2; o2 < o3; o2++) {
        o[2] = o2;
        const u2 = BINOM[o2]![3]!;
        const v2 = BINOM[o2]![4]!;
        for (let o1 = 1; o1 < o2; o1++) {
          o[1] = o1;
          const u1 = BINOM[o1]![2]!;
          const v1 = BINOM[o1]![3]!;
          const b0 = cg6 + u1 + u2 + u3 + u4;
          const B1 = cg6 + u2 + u3 + u4;
          const B2 = cg6 + v1 + u3 + u4;
          const B3 = cg6 + v1 + v2 + u4;
          const B4 = cg6 + v1 + v2 + v3;
          const B5 = v1 + v2 + v3 + v4;
          for (let o0 = 0; o0 < o1; o0++, rank5++) {
            o[0] = o0;
            const v0 = (o0 * (o0 - 1)) / 2;
            const b1 = B1 + v0;
            const b2 = B2 + v0;
            const b3 = B3 + v0;
            const b4 = B4 + v0;
            const b5 = B5 + v0;
            const y0 = y6[rank5 + cg6]!;
            for (let a = 0; a < o0; a++, r++) {
              const s =
                y0 +
                y6[b0 + a]! +
                y6[b1 + a]! +
                y6[b2 + a]! +
                y6[b3 + a]! +
                y6[b4 + a]! +
                y6[b5 + a]!;
              let c7 = 0;
              if (r === nextT) {
                c7 = ticketMult[tp]!;
                tp++;
                nextT = tp < nT ? ticketRanks[tp]! : -1;
              }
              const t = s / 24 + alpha7 * c7;
              exact[t]!++;
              if (t < min) min = t;
              if (t >= max) {
                const lk = lexKey(a, o);
                if (t > max || lk < worstLex) {
                  max = t;
                  worstRank = r;
                  worstLex = lk;
                }
              }
              // from ≤ t ≤ top, in one test (integers far below 2^53: exact)
              if (Math.abs(2 * t - from - top) <= top - from)
                from = Math.max(lo, best.offer(t, lexKey(a, o), r));
            }
          }
        }
      }
    }
  }
  st.min = min;
  st.max = max;
  st.worstRank = worstRank;
  st.worstLex = worstLex;
  st.draws += BINOM[g]![6]!;
}

/** The histogram, its shift and the qualifying count of a counted scan (`scanTopCounted`). */
export function countedStats(st: RunningStats, exact: Uint32Array, lo: number, hi: number): void {
  if (st.draws === 0) return;
  const { min, max, hist } = st;
  let shift = 0;
  while (Math.floor(max / 2 ** shift) >= hist.length) shift++;
  const inverse = 2 ** -shift;
  let qualified = 0;
  for (let t = min; t <= max; t++) {
    const n = exact[t]!;
    const bin = Math.floor(t * inverse);
    hist[bin] = hist[bin]! + n;
    if (t >= lo && t <= hi) qualified += n;
  }
  st.shift = shift;
  st.qualified = qualified;
}
