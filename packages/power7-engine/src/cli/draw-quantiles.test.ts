import { afterAll, describe, expect, it } from 'vitest';
import { generateTickets } from '../../bench/generate';
import { analyzeTickets, closeScanWorkers, type AnalyzeOptions } from '../analysis/analyze';
import type { Payouts } from '../core/model';
import { drawQuantiles } from './draw-quantiles';

afterAll(() => closeScanWorkers());

const POOL = 20;

/** The CLI's analysis (no draw kept, best 20, no bin sums), its totals counted per total or kept. */
async function cliAnalysis(tickets: Uint8Array, payouts: Payouts, workers: number, exact: boolean) {
  const opts: AnalyzeOptions = {
    pool: POOL,
    payouts,
    budget: { type: 'fixed', budget: 2000 },
    workers,
    keepDraws: false,
    topDraws: 20,
    sumDistribution: false,
    exactTotals: exact,
  };
  const res = await analyzeTickets(tickets, tickets.length / 7, opts);
  return { res, quantiles: await drawQuantiles(res.distribution, workers) };
}

describe("the CLI's quantiles from the draws counted per total", () => {
  it('are those of a pass over every total, in this thread and on workers', async () => {
    const tickets = generateTickets(3000, POOL, 'uniform', 11);
    for (const payouts of [
      { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
      { 3: 0.5, 4: 2.25, 5: 30, 6: 410, 7: 2500.75 },
      { 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 },
      // in cents: totals past the histogram's 65,536 bins of one unit, so its bins are read
      { 3: 0.11, 4: 0.5, 5: 5, 6: 50, 7: 5 },
    ])
      for (const workers of [1, 2]) {
        const counted = await cliAnalysis(tickets, payouts, workers, true);
        const passed = await cliAnalysis(tickets, payouts, workers, false);
        const what = `${JSON.stringify(payouts)} on ${workers} thread(s)`;
        // counted indeed: no totals kept, every draw counted once
        expect(counted.res.distribution.totals, what).toHaveLength(0);
        const exact = counted.res.distribution.exact!;
        expect(
          exact.reduce((n, c) => n + c, 0),
          what,
        ).toBe(counted.res.draws);
        expect(passed.res.distribution.exact, what).toBeUndefined();
        expect(counted.quantiles, what).toEqual(passed.quantiles);
        if (payouts[3] === 0.11)
          expect(counted.res.distribution.index.shift, what).toBeGreaterThan(0);
        expect(counted.res.stats, what).toEqual(passed.res.stats);
        expect(counted.res.top, what).toEqual(passed.res.top);
        expect(counted.res.qualified, what).toBe(passed.res.qualified);
      }
  });

  it('keeps the totals when their bound is too large to count per total', async () => {
    const tickets = generateTickets(3000, POOL, 'uniform', 12);
    // in cents (a payout of 0.01): a 7-match pays 5,000,000 units, beyond the counted range
    const payouts = { 3: 0.01, 4: 5, 5: 50, 6: 500, 7: 50000 };
    const { res, quantiles } = await cliAnalysis(tickets, payouts, 2, true);
    expect(res.distribution.exact).toBeUndefined();
    expect(res.distribution.totals).toHaveLength(res.draws);
    expect(quantiles).toEqual((await cliAnalysis(tickets, payouts, 2, false)).quantiles);
  });
});
