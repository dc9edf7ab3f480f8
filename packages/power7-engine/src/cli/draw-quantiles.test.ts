import { afterAll, describe, expect, it } from 'vitest';
import { generateTickets } from '../../bench/generate';
import { analyzeTickets, closeScanWorkers, type AnalyzeOptions } from '../analysis/analyze';
import type { Budget, Payouts } from '../core/model';
import { drawQuantiles } from './draw-quantiles';

afterAll(() => closeScanWorkers());

const POOL = 20;

/** The CLI's analysis (no draw kept, best 20, no bin sums), its totals counted per total or kept. */
async function cliAnalysis(
  tickets: Uint8Array,
  payouts: Payouts,
  workers: number,
  exact: boolean,
  budget: Budget = { type: 'fixed', budget: 2000 },
) {
  const opts: AnalyzeOptions = {
    pool: POOL,
    payouts,
    budget,
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

  it('qualify and rank the same draws as the general scan, whatever the budget', async () => {
    const tickets = generateTickets(3000, POOL, 'uniform', 13);
    const payouts = { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 };
    const { min, max } = (await cliAnalysis(tickets, payouts, 1, false)).res.stats;
    const at = (f: number) => Math.round(min + f * (max - min));
    const budgets: Budget[] = [
      ...[0, 0.3, 0.5, 0.9, 1].map((f) => ({ type: 'fixed' as const, budget: at(f) })),
      { type: 'fixed', budget: min - 1 },
      { type: 'range', min: at(0.25), max: at(0.75) },
      { type: 'range', min: at(0.5), max: at(0.5) },
      { type: 'range', min: max + 1, max: max + 10 },
    ];
    for (const budget of budgets) {
      const counted = await cliAnalysis(tickets, payouts, 2, true, budget);
      const passed = await cliAnalysis(tickets, payouts, 2, false, budget);
      const what = JSON.stringify(budget);
      expect(counted.res.distribution.exact, what).toBeDefined();
      expect(counted.res.qualified, what).toBe(passed.res.qualified);
      expect(counted.res.top, what).toEqual(passed.res.top);
      expect(counted.res.stats, what).toEqual(passed.res.stats);
      expect(counted.quantiles, what).toEqual(passed.quantiles);
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
