import { BINOM, PICK } from '../core/model';
import type { ScanStats } from '../core/scan';
import type { Tables } from '../core/table-types';
import type { Weights } from '../core/weights';

// The draws counted per total instead of every draw's total kept (`AnalyzeOptions.exactTotals`).

/** The largest total bound (units) for which `AnalyzeOptions.exactTotals` counts per total. */
export const EXACT_TOTALS_MAX = 1 << 22;

/**
 * A bound on every draw's total in units: winners of match type m ≤ C(7,m)·max c_m (each winner
 * holds one of the draw's C(7,m) m-subsets), so total ≤ Σ_m w_m·C(7,m)·max c_m.
 */
export function totalsBound(tables: Tables, weights: Weights): number {
  let bound = 0;
  for (let m = 3; m <= PICK; m++) {
    if (weights.w[m]! < 0) return Infinity;
    bound += weights.w[m]! * BINOM[PICK]![m]! * tables.maxCount[m]!;
  }
  return bound;
}

/** The draws per total of every scan (`ScanStats.exact`), added up over [smallest, largest total]. */
export function mergeExact(list: ScanStats[]): Uint32Array {
  // a scan in this thread counts every call into one array: each array once
  const arrays = [...new Set(list.map((s) => s.exact))];
  const sum = arrays[0]!;
  let min = Infinity;
  let max = -Infinity;
  for (const s of list) {
    if (s.draws === 0) continue;
    min = Math.min(min, s.min);
    max = Math.max(max, s.max);
  }
  for (const more of arrays.slice(1)) for (let t = min; t <= max; t++) sum[t] = sum[t]! + more[t]!;
  return sum;
}
