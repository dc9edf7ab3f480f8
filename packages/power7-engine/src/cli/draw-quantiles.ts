import type { AnalysisResult } from '../analysis/analyze';
import { type BinReader, DistributionQuery, scannedBins } from '../analysis/distribution';
import { quantiles, type Quantiles } from '../analysis/distribution-insight';
import { binPassOnWorkers } from '../parallel/workers';

/**
 * The quantiles of every draw's total: a bin's totals from the draws counted per total, or else from
 * a pass over the totals, split over the scan workers.
 */
export function drawQuantiles(
  { index, totals, exact }: AnalysisResult['distribution'],
  threads: number,
): Promise<Quantiles> {
  if (exact) return quantiles(new DistributionQuery(index, countedBins(exact, index.shift)));
  const pass = threads > 1 ? binPassOnWorkers(threads, totals, index.shift) : undefined;
  return quantiles(new DistributionQuery(index, scannedBins(totals, index.shift, pass)));
}

/** Bin i's totals, ascending, from the draws per total (`exact[t]` draws of total t units). */
function countedBins(exact: Uint32Array, shift: number): BinReader {
  return (bin) => {
    const from = bin * 2 ** shift;
    const to = Math.min((bin + 1) * 2 ** shift, exact.length);
    let n = 0;
    for (let t = from; t < to; t++) n += exact[t]!;
    const values = new Float64Array(n);
    for (let t = from, at = 0; t < to; at += exact[t]!, t++) values.fill(t, at, at + exact[t]!);
    return Promise.resolve(values);
  };
}
