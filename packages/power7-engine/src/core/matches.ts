import { BINOM, PICK } from './model';

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
  for (let i = 0; i < PICK; i++) {
    const row = BINOM[tickets[p + i]! - 1]!;
    for (let k = 1; k <= 6; k++) term[i * 8 + k] = row[k]!;
  }
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
}

export function matchesRange(op: MatchesOp): void {
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
