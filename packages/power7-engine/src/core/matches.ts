import { loadRankTerms, PICK, TICKET_RANK_TERMS } from './model';

/**
 * A combination's exact matches with a counted set of 7-number sets (draws taken as tickets, or
 * tickets), from their k-subset counts: the kernel of exposure (`exposure.ts`) and of the liability
 * limit (`liability.ts`), and the piece of work the scan workers run for exposure (`MatchesOp`).
 */

/** The k-subset counts (k = 3..6) that `matchesWith` reads, by colex rank. */
export interface SubsetCounts {
  c3: Uint32Array;
  c4: Uint32Array;
  c5: Uint32Array;
  c6: Uint32Array;
}

/**
 * How many of the counted sets (`tables`: draws taken as tickets, or tickets) share exactly j numbers
 * with the combination at tickets[p..p+7), j = 3..7, into out[3..7]; `copies7`: how many of them are
 * the combination itself (its 7-subset). Every k-subset's colex rank is built from its prefix's, so
 * the 98 subsets of sizes 3..6 cost ~400 additions.
 */
export function matchesWith(
  tables: SubsetCounts,
  tickets: Uint8Array,
  p: number,
  copies7: number,
  out: Float64Array,
): void {
  const { c3, c4, c5, c6 } = tables;
  // term[i·8 + k] = C(e_i, k): element i (0-based number) at position k of a subset
  const term = TERMS;
  loadRankTerms(term, tickets, p);
  let n3 = 0;
  let n4 = 0;
  let n5 = 0;
  let n6 = 0;
  for (let i0 = 0; i0 < 5; i0++) {
    const r1 = term[i0 * 8 + 1]!;
    for (let i1 = i0 + 1; i1 < 6; i1++) {
      const r2 = r1 + term[i1 * 8 + 2]!;
      for (let i2 = i1 + 1; i2 < 7; i2++) {
        const r3 = r2 + term[i2 * 8 + 3]!;
        n3 += c3[r3]!;
        for (let i3 = i2 + 1; i3 < 7; i3++) {
          const r4 = r3 + term[i3 * 8 + 4]!;
          n4 += c4[r4]!;
          for (let i4 = i3 + 1; i4 < 7; i4++) {
            const r5 = r4 + term[i4 * 8 + 5]!;
            n5 += c5[r5]!;
            for (let i5 = i4 + 1; i5 < 7; i5++) n6 += c6[r5 + term[i5 * 8 + 6]!]!;
          }
        }
      }
    }
  }
  const e7 = copies7;
  const e6 = n6 - 7 * e7;
  const e5 = n5 - 6 * e6 - 21 * e7;
  const e4 = n4 - 5 * e5 - 15 * e6 - 35 * e7;
  out[3] = n3 - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
  out[4] = e4;
  out[5] = e5;
  out[6] = e6;
  out[7] = e7;
}
const TERMS = new Float64Array(PICK * 8);

/**
 * Adds the k-subsets (k = 3..6) of sets [0, count) of `tickets` (7 ascending 1-based numbers each)
 * to the tables: 98 increments a set, the ranks made as in `matchesWith`. For a few draws (a high
 * line's), far cheaper than `countTables`' passes over every 6-set.
 */
export function countSubsets(tickets: Uint8Array, count: number, tables: SubsetCounts): void {
  const { c3, c4, c5, c6 } = tables;
  const term = TERMS;
  for (let p = 0; p < count * PICK; p += PICK) {
    loadRankTerms(term, tickets, p);
    for (let i0 = 0; i0 < 5; i0++) {
      const r1 = term[i0 * 8 + 1]!;
      for (let i1 = i0 + 1; i1 < 6; i1++) {
        const r2 = r1 + term[i1 * 8 + 2]!;
        for (let i2 = i1 + 1; i2 < 7; i2++) {
          const r3 = r2 + term[i2 * 8 + 3]!;
          c3[r3]!++;
          for (let i3 = i2 + 1; i3 < 7; i3++) {
            const r4 = r3 + term[i3 * 8 + 4]!;
            c4[r4]!++;
            for (let i4 = i3 + 1; i4 < 7; i4++) {
              const r5 = r4 + term[i4 * 8 + 5]!;
              c5[r5]!++;
              for (let i5 = i4 + 1; i5 < 7; i5++) c6[r5 + term[i5 * 8 + 6]!]!++;
            }
          }
        }
      }
    }
  }
}

/**
 * Exposure's per-combination work for combinations [from, to): their matches with the draws on the
 * counted side of the line (`above`: the draws above it; else the others, whose complement is taken
 * from `all`, the whole game's counts), summed into draws won (≥ 3 matches) and one copy's payout in
 * units. Every array lives in shared memory: pieces run on the scan workers side by side.
 */
export interface MatchesOp {
  op: 'matches';
  tables: SubsetCounts | null;
  /** The distinct combinations' numbers, 7 bytes each. */
  numbers: Uint8Array;
  /** Per combination, 1 when its own draw is on the counted side. */
  onSide: Uint8Array;
  from: number;
  to: number;
  above: boolean;
  /** Payout per match type in units, and the whole game's matches per match type (index 3..7). */
  w: number[];
  all: number[];
  drawsWon: Float64Array;
  perCopy: Float64Array;
  /** The counted draws folded twice (`foldTwice`): then `tables` is not read. */
  folded?: FoldedDraws | null;
}

/**
 * The counted draws' tables folded as the analysis folds the tickets' (`foldTables`), once with the
 * payouts and once with 1 for every match type ≥ 3, interleaved per 6-set U: y[2·rank(U)] and
 * y[2·rank(U) + 1]. Then, as for a draw's total, a combination's payout summed over the counted draws
 * is (Σ over its seven 6-subsets of y) / 24 + α_7 · c7, and its draws won likewise: 7 pairs of loads
 * instead of ~100 lookups. `allPay`, `allWon`: the same sums over every draw of the game.
 */
export interface FoldedDraws {
  y: Float64Array;
  alpha7Pay: number;
  alpha7Won: number;
  allPay: number;
  allWon: number;
}

export function matchesRange(op: MatchesOp): void {
  if (op.folded) {
    foldedRange(op, op.folded);
    return;
  }
  const m = new Float64Array(8);
  const { tables, numbers, onSide, above, w, all, drawsWon, perCopy } = op;
  for (let k = op.from; k < op.to; k++) {
    if (tables) matchesWith(tables, numbers, k * PICK, onSide[k]!, m);
    else m.fill(0);
    let won = 0;
    let pays = 0;
    for (let j = 3; j <= PICK; j++) {
      const over = above ? m[j]! : all[j]! - m[j]!;
      won += over;
      pays += over * w[j]!;
    }
    drawsWon[k] = won;
    perCopy[k] = pays;
  }
}

/** `matchesRange` from the folded tables: the 6-subset ranks as in `countSixSubsets`. */
function foldedRange(op: MatchesOp, folded: FoldedDraws): void {
  const { numbers, onSide, above, drawsWon, perCopy } = op;
  const { y, alpha7Pay, alpha7Won, allPay, allWon } = folded;
  const c = TICKET_RANK_TERMS;
  for (let k = op.from, p = op.from * PICK; k < op.to; k++, p += PICK) {
    const n0 = numbers[p]! * 8;
    const n1 = numbers[p + 1]! * 8;
    const n2 = numbers[p + 2]! * 8;
    const n3 = numbers[p + 3]! * 8;
    const n4 = numbers[p + 4]! * 8;
    const n5 = numbers[p + 5]! * 8;
    const n6 = numbers[p + 6]! * 8;
    // k_i: number i at its own place in a 6-subset; j_i: one place down (an earlier one dropped)
    const k0 = c[n0 + 1]!;
    const k1 = c[n1 + 2]!;
    const k2 = c[n2 + 3]!;
    const k3 = c[n3 + 4]!;
    const k4 = c[n4 + 5]!;
    const k5 = c[n5 + 6]!;
    const j1 = c[n1 + 1]!;
    const j2 = c[n2 + 2]!;
    const j3 = c[n3 + 3]!;
    const j4 = c[n4 + 4]!;
    const j5 = c[n5 + 5]!;
    const j6 = c[n6 + 6]!;
    const r0 = 2 * (j1 + j2 + j3 + j4 + j5 + j6);
    const r1 = 2 * (k0 + j2 + j3 + j4 + j5 + j6);
    const r2 = 2 * (k0 + k1 + j3 + j4 + j5 + j6);
    const r3 = 2 * (k0 + k1 + k2 + j4 + j5 + j6);
    const r4 = 2 * (k0 + k1 + k2 + k3 + j5 + j6);
    const r5 = 2 * (k0 + k1 + k2 + k3 + k4 + j6);
    const r6 = 2 * (k0 + k1 + k2 + k3 + k4 + k5);
    const c7 = onSide[k]!;
    const pay =
      (y[r0]! + y[r1]! + y[r2]! + y[r3]! + y[r4]! + y[r5]! + y[r6]!) / 24 + alpha7Pay * c7;
    const won =
      (y[r0 + 1]! + y[r1 + 1]! + y[r2 + 1]! + y[r3 + 1]! + y[r4 + 1]! + y[r5 + 1]! + y[r6 + 1]!) /
        24 +
      alpha7Won * c7;
    perCopy[k] = above ? pay : allPay - pay;
    drawsWon[k] = above ? won : allWon - won;
  }
}
