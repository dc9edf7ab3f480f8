import { BINOM } from './model';
import { firstTicketAtLeast } from './ticket-ranks';

/**
 * One piece of a live book's opening from its session (issue #41, ADR 029): for the draws whose
 * largest number is in `tops`, each draw's total with the session's tickets (`from`) less its total
 * with the tickets the limit refused (the tables of those), written to `into` — and, on the way, what
 * the book's watch is chosen from (`TotalsSeen`): the largest total written, and the draws whose total
 * is at least `floor`. One pass over the draws instead of the refused tickets' whole analysis (a scan
 * that keeps statistics the book does not read) and then a pass over 6.7M totals at P=35 to subtract
 * them.
 */
export interface LessOp {
  op: 'less';
  /** The refused tickets' tables (`Tables`): the folded 6-sets and the distinct tickets. */
  y6: Float64Array;
  ticketRanks: Uint32Array;
  ticketMult: Uint32Array;
  alpha7: number;
  /** Every draw's total with every ticket, by colex rank (shared). */
  from: Float64Array;
  /** Where the difference goes, by colex rank (shared; may be `from`). */
  into: Float64Array;
  tops: number[];
  floor: number;
  /** Shared: seen[2·part] the largest total written, seen[2·part + 1] how many are ≥ floor. */
  seen: Float64Array;
  /** Shared, this part's own: the ranks of the draws ≥ floor, as long as they fit. */
  ranks: Uint32Array;
  part: number;
}

/** Runs one piece (`LessOp`) in the calling thread. */
export function writeLess(op: LessOp): void {
  const found = new Float64Array(2);
  const { y6, ticketRanks, ticketMult, alpha7, from, into, floor, ranks } = op;
  for (const g of op.tops) {
    if (g >= 6) lessTop(g, y6, ticketRanks, ticketMult, alpha7, from, into, floor, ranks, found);
  }
  op.seen[2 * op.part] = found[0]!;
  op.seen[2 * op.part + 1] = found[1]!;
}

/**
 * The draws whose largest number is `g`, in colex order: the same loops and the same sum as the
 * analysis' scan (`scanTop`, so each difference is exact), with no statistics; `found` holds the
 * largest difference and the count at or above the floor so far. Kept long, as `scanTop`: a measured
 * kernel whose loops carry the partial sums of the subset ranks. Typed arrays and numbers only, as
 * `scanTop`'s (one shape of argument for every call). Its warm-up (`warm-up.ts`) takes every branch.
 */
function lessTop(
  g: number,
  y6: Float64Array,
  ticketRanks: Uint32Array,
  ticketMult: Uint32Array,
  alpha7: number,
  from: Float64Array,
  into: Float64Array,
  floor: number,
  ranks: Uint32Array,
  found: Float64Array,
): void {
  let top = found[0]!;
  let count = found[1]!;
  const most = ranks.length;
  const nT = ticketRanks.length;
  const cg6 = BINOM[g]![6]!;
  let r = BINOM[g]![7]!;
  let tp = firstTicketAtLeast(ticketRanks, r);
  let nextT = tp < nT ? ticketRanks[tp]! : -1;
  let rank5 = 0;
  for (let o4 = 4; o4 < g; o4++) {
    const u4 = BINOM[o4]![5]!;
    const v4 = BINOM[o4]![6]!;
    for (let o3 = 3; o3 < o4; o3++) {
      const u3 = BINOM[o3]![4]!;
      const v3 = BINOM[o3]![5]!;
      for (let o2 = 2; o2 < o3; o2++) {
        const u2 = BINOM[o2]![3]!;
        const v2 = BINOM[o2]![4]!;
        for (let o1 = 1; o1 < o2; o1++) {
          const u1 = BINOM[o1]![2]!;
          const v1 = BINOM[o1]![3]!;
          const b0 = cg6 + u1 + u2 + u3 + u4;
          const B1 = cg6 + u2 + u3 + u4;
          const B2 = cg6 + v1 + u3 + u4;
          const B3 = cg6 + v1 + v2 + u4;
          const B4 = cg6 + v1 + v2 + v3;
          const B5 = v1 + v2 + v3 + v4;
          for (let o0 = 0; o0 < o1; o0++, rank5++) {
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
              const v = from[r]! - (s / 24 + alpha7 * c7);
              into[r] = v;
              if (v > top) top = v;
              if (v >= floor) {
                if (count < most) ranks[count] = r;
                count++;
              }
            }
          }
        }
      }
    }
  }
  found[0] = top;
  found[1] = count;
}
