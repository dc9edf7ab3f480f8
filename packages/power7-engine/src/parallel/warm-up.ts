import { groupDraws, groupedColumn } from '../core/distribution-group';
import { HIST_BINS, scanTops, type CountWidth, type ScanParams } from '../core/scan';
import { addTierTables, buildTables } from '../core/tables';
import { writeLess } from '../core/totals-less';
import { deriveWeights } from '../core/weights';
import { drawCount } from '../core/model';

/**
 * Runs the build and scan kernels on a small synthetic problem (P=20, 3,000 tickets with duplicates:
 * ~80,000 draws per scan, a few milliseconds): sparse and dense per-tier counting,
 * count columns of 1, 2 and 4 bytes, histogram widening, then the distribution's grouping and a live
 * book's opening (`writeLess`). V8 then optimises the kernels with every branch and type already
 * seen, instead of deoptimising and recompiling them during the first real analysis.
 */
export async function warmUpKernels(): Promise<void> {
  const pool = 20;
  const count = 3000;
  const tickets = new Uint8Array(count * 7);
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  const numbers: number[] = [];
  for (let t = 0; t < count; t++) {
    if (t % 10 === 9) {
      tickets.copyWithin(t * 7, (t - 1) * 7, t * 7); // a duplicate ticket
      continue;
    }
    numbers.length = 0;
    while (numbers.length < 7) {
      const n = 1 + (next() % pool);
      if (!numbers.includes(n)) numbers.push(n);
    }
    numbers.sort((a, b) => a - b);
    tickets.set(numbers, t * 7);
  }
  const payouts = { 3: 10, 4: 100, 5: 1000, 6: 10000, 7: 1000000 };
  const weights = deriveWeights(payouts, { type: 'fixed', budget: 1 }, count);
  const tops: number[] = [];
  for (let g = pool - 1; g >= 6; g--) tops.push(g);
  const sink = { chunk: () => undefined, progress: () => undefined };
  const totals = new Float64Array(drawCount(pool));
  const params = (lo: number, hi: number, width: CountWidth): ScanParams => ({
    pool,
    w: Array.from(weights.w),
    alpha7: weights.alpha[7]!,
    lo,
    hi,
    widths: [width, width, width, width, width],
    totals,
    record: true,
    top: 0,
  });
  const tables = await buildTables(tickets, count, pool, weights);
  // none qualify (statistics only), then ~5% (sparse counting), then all (dense counting)
  const all = scanTops(tables, params(0, -1, 1), tops, sink);
  const sparse = all.min + (all.max - all.min) / 20;
  scanTops(tables, params(all.min, sparse, 4), tops, sink);
  scanTops(tables, params(all.min, sparse, 1), tops, sink);
  await addTierTables(tables);
  scanTops(tables, params(all.min, all.max, 2), tops, sink);
  // the distribution's grouping into each stored width, the first with the bin sums, then sums alone
  const starts = new Float64Array(HIST_BINS + 1);
  for (let b = 1; b <= HIST_BINS; b++) starts[b] = starts[b - 1]! + all.hist[b - 1]!;
  const sums = { high: new Float64Array(HIST_BINS), low: new Float64Array(HIST_BINS) };
  const group = (out: ReturnType<typeof groupedColumn> | null, withSums: boolean) =>
    groupDraws({
      op: 'group',
      totals,
      tops,
      shift: all.shift,
      first: 0,
      end: HIST_BINS,
      starts,
      hists: [new Uint32Array(HIST_BINS), all.hist],
      part: 1,
      out,
      sums: withSums ? sums : null,
    });
  for (const bytes of [1, 2, 4, 8] as const)
    group(groupedColumn(bytes, totals.length, false), bytes === 1);
  group(groupedColumn(2, totals.length, false), false);
  group(null, true);
  // a live book's opening from its session: twice the totals less the tickets' own, so that every
  // branch is taken, three times, so that its optimised code is in place (with all-zero
  // differences, or once, the first real piece ran ~140 ms instead of ~55 at P=35)
  const from = new Float64Array(new SharedArrayBuffer(totals.length * 8));
  for (let d = 0; d < totals.length; d++) from[d] = 2 * totals[d]!;
  const less = {
    op: 'less' as const,
    y6: tables.y6,
    ticketRanks: tables.ticketRanks,
    ticketMult: tables.ticketMult,
    alpha7: weights.alpha[7]!,
    from,
    into: new Float64Array(new SharedArrayBuffer(totals.length * 8)),
    tops,
    floor: all.min,
    seen: new Float64Array(2),
    ranks: new Uint32Array(16),
    part: 0,
  };
  for (let i = 0; i < 3; i++) writeLess(less);
}
