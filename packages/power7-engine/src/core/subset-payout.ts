import { BINOM, PICK, TICKET_RANK_TERMS } from './model';

/**
 * β_k for k = 3..upTo, solving Σ_k β_k·C(m,k) = w_m for m ≤ upTo (the inclusion–exclusion of the
 * analysis' fold): a ticket sharing m numbers with a draw holds C(m,k) of its k-subsets, so weighting
 * each shared k-subset by β_k pays the draw w_m. Integer payouts give integer β: exact.
 */
export function subsetWeights(w: ArrayLike<number>, upTo: number): Float64Array {
  const beta = new Float64Array(8);
  for (let k = 3; k <= upTo; k++) {
    let b = w[k]!;
    for (let j = 3; j < k; j++) b -= beta[j]! * BINOM[k]![j]!;
    beta[k] = b;
  }
  return beta;
}

/**
 * Σ_k β_k·n_k over k = 3..below−1 for the draw at `draws[p..p+7)`, n_k the tickets counted in
 * `counts[k]` (dense by colex rank) summed over the draw's k-subsets: what the counted tickets pay
 * it through the subsets shared up to that size (`RangeSums` counts below its g, `BulkSums` below 7).
 */
export function countedPayout(
  draws: Uint8Array,
  p: number,
  counts: readonly Uint32Array[],
  beta: Float64Array,
  below: number,
): number {
  const c = TICKET_RANK_TERMS;
  const c3 = counts[3]!;
  const c4 = counts[4]!;
  const c5 = counts[5]!;
  const c6 = counts[6]!;
  let n3 = 0;
  let n4 = 0;
  let n5 = 0;
  let n6 = 0;
  for (let i0 = 0; i0 < 5; i0++) {
    const r1 = c[draws[p + i0]! * 8 + 1]!;
    for (let i1 = i0 + 1; i1 < 6; i1++) {
      const r2 = r1 + c[draws[p + i1]! * 8 + 2]!;
      for (let i2 = i1 + 1; i2 < PICK; i2++) {
        const r3 = r2 + c[draws[p + i2]! * 8 + 3]!;
        n3 += c3[r3]!;
        for (let i3 = i2 + 1; i3 < PICK; i3++) {
          const r4 = r3 + c[draws[p + i3]! * 8 + 4]!;
          n4 += c4[r4]!;
          if (below < 6) continue;
          for (let i4 = i3 + 1; i4 < PICK; i4++) {
            const r5 = r4 + c[draws[p + i4]! * 8 + 5]!;
            n5 += c5[r5]!;
            if (below < 7) continue;
            for (let i5 = i4 + 1; i5 < PICK; i5++) n6 += c6[r5 + c[draws[p + i5]! * 8 + 6]!]!;
          }
        }
      }
    }
  }
  let sum = beta[3]! * n3 + beta[4]! * n4;
  if (below > 5) sum += beta[5]! * n5;
  if (below > 6) sum += beta[6]! * n6;
  return sum;
}
