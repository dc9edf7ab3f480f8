import { BestDraw } from './best-draw';
import { numbersOfRank, PICK } from './model';
import { pop32 } from './shared-numbers';

/**
 * The worst draw once a liability limit's refusals are taken out (docs/product/services.md
 * "Liability limit"): the hot draws' totals are known from the run; any other draw's is its total
 * with every ticket less what the refused tickets pay it, worked out only for the few draws that
 * could still beat the best hot one.
 */

/** The worst draw after the refusals: highest total with the accepted tickets, ties by smaller combination. */
export interface WorstDraw {
  numbers: number[];
  /** In units. */
  total: number;
}

/** What the refused tickets pay the draw of `numbers` (ascending), in units. */
export type RefusedPay = (numbers: number[]) => number;

/** `RefusedPay` from the refused tickets' masks (`masksOf`): two popcounts a ticket. */
export function payByMasks(masks: Uint32Array, w: ArrayLike<number>): RefusedPay {
  const pays = Float64Array.from({ length: 8 }, (_, m) => (m >= 3 ? w[m]! : 0));
  return (numbers) => {
    let lo = 0;
    let hi = 0;
    for (const n of numbers) {
      if (n <= 32) lo = (lo | (1 << (n - 1))) >>> 0;
      else hi = (hi | (1 << (n - 33))) >>> 0;
    }
    let paid = 0;
    for (let t = 0; t < masks.length; t += 2)
      paid += pays[pop32(masks[t]! & lo) + pop32(masks[t + 1]! & hi)]!;
    return paid;
  };
}

/**
 * `RefusedPay` read from the tickets themselves (`refused`: their indexes): seven lookups a ticket
 * and no masks to make first — cheaper for a few draws.
 */
export function payByTickets(
  tickets: Uint8Array,
  refused: Uint32Array,
  w: ArrayLike<number>,
): RefusedPay {
  const pays = Float64Array.from({ length: 8 }, (_, m) => (m >= 3 ? w[m]! : 0));
  const inDraw = new Uint8Array(64);
  return (numbers) => {
    for (const n of numbers) inDraw[n] = 1;
    let paid = 0;
    for (let k = 0; k < refused.length; k++) {
      const p = refused[k]! * PICK;
      let m = 0;
      for (let i = 0; i < PICK; i++) m += inDraw[tickets[p + i]!]!;
      paid += pays[m]!;
    }
    for (const n of numbers) inDraw[n] = 0;
    return paid;
  };
}

/**
 * The worst draw with the accepted tickets: a hot draw's total is known (`hot` and `hotTotals`, as
 * `drawsOnSide` wrote them); any other draw's is its total with every ticket less what the refused
 * tickets pay it (`refusedPay`) — only worked out for draws whose total with every ticket reaches
 * the best found so far. `candidates`: those draws, every draw at or under the line whose total
 * with every ticket reaches the best hot total after the refusals, highest first (`drawsReaching`).
 */
export function worstAfterRefusals(
  totals: Float64Array,
  hot: Uint8Array,
  hotTotals: Float64Array,
  refusedPay: RefusedPay,
  candidates: Uint32Array,
): WorstDraw {
  const best = new BestDraw();
  // the hot draws' totals are known: the best of them first, so that the loop below works out the
  // accepted total only of the other draws that could still beat it (the winner does not depend on
  // the order draws are considered in: highest total, then the smaller combination)
  for (let h = 0; h < hotTotals.length; h++) {
    best.consider(hotTotals[h]!, hot.subarray(h * PICK, h * PICK + PICK));
  }
  /** Draw `numbers`' total with every ticket (`all`) less what the refused tickets pay it. */
  const consider = (all: number, numbers: number[]) =>
    best.consider(all - refusedPay(numbers), numbers);
  for (const r of candidates) {
    // highest first: once one cannot reach the best, none after it can
    if (totals[r]! < best.total) break;
    consider(totals[r]!, numbersOfRank(r));
  }
  return { numbers: best.numbers, total: best.total };
}
