import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import { DistributionQuery, scannedBins } from '../src/analysis/distribution';
import { quantiles } from '../src/analysis/distribution-insight';
import type { Budget, Payouts } from '../src/core/model';
import { naiveAnalysis, qualifies } from './reference';
import { moneyArb, ticketArb } from './arbitraries';

// The CLI's path (issue #27): no draw recorded, the best few kept by the scan itself. Same answers as
// the naive reference: how many qualify, the best `top` with their winners (ties by combo), and the
// quantiles without the distribution's sums.

const caseArb = fc
  .integer({ min: 8, max: 13 })
  .chain((pool) =>
    fc.record({
      pool: fc.constant(pool),
      distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 40 }),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
      payouts: fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
      q1: fc.double({ min: 0, max: 1, noNaN: true }),
      q2: fc.double({ min: 0, max: 1, noNaN: true }),
      top: fc.integer({ min: 1, max: 30 }),
    }),
  )
  .map((c) => ({ ...c, tickets: c.picks.map((i) => c.distinct[i % c.distinct.length]!) }));

const lexCmp = (a: number[], b: number[]) => {
  for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
};

async function check(
  c: { pool: number; tickets: number[][]; payouts: Payouts; q1: number; q2: number; top: number },
  workers: number,
) {
  const naive = naiveAnalysis(c.tickets, c.pool, c.payouts);
  const totals = naive.map((d) => d.totalCents).sort((a, b) => a - b);
  const at = (q: number) => totals[Math.floor(q * (totals.length - 1))]! / 100;
  const budget: Budget = {
    type: 'range',
    min: at(Math.min(c.q1, c.q2)),
    max: at(Math.max(c.q1, c.q2)),
  };
  const buf = new Uint8Array(c.tickets.length * 7);
  c.tickets.forEach((t, i) => buf.set(t, i * 7));
  const res = await analyzeTickets(buf, c.tickets.length, {
    pool: c.pool,
    payouts: c.payouts,
    budget,
    workers,
    keepDraws: false,
    topDraws: c.top,
    sumDistribution: false,
  });
  const expected = naive.filter((d) => qualifies(d.totalCents, budget));
  expect(res.qualified).toBe(expected.length);
  expect(res.table.length).toBe(0);
  const got = res.top.map((d) => ({
    numbers: d.numbers,
    winners: [3, 4, 5, 6, 7].map((m) => d.winners[m as 3]),
    cents: d.total * res.weights.unit,
  }));
  const want = [...expected]
    .sort((a, b) => b.totalCents - a.totalCents || lexCmp(a.numbers, b.numbers))
    .slice(0, c.top)
    .map((d) => ({ numbers: d.numbers, winners: d.winners.slice(3), cents: d.totalCents }));
  expect(got).toEqual(want);
  // the quantiles as the CLI asks them: no per-bin sums, the bins read from the totals in one pass
  const { index, totals: byRank } = res.distribution;
  expect(index.sumHigh.length).toBe(0);
  const q = await quantiles(new DistributionQuery(index, scannedBins(byRank, index.shift)));
  for (const key of ['50', '90', '95', '99', '99.9'] as const) {
    const k = Math.ceil((Number(key) * 10 * totals.length) / 1000);
    expect(Math.round(q[key] * 100), key).toBe(totals[Math.max(1, k) - 1]);
  }
}

describe('the best qualifying draws kept while scanning, nothing recorded', () => {
  it('in this thread', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, (c) => check(c, 1)),
      { numRuns: 30, seed: 20261126 },
    );
  }, 60_000);

  it.each([2, 3])(
    'split over %i worker threads',
    async (workers) => {
      await fc.assert(
        fc.asyncProperty(caseArb, (c) => check(c, workers)),
        { numRuns: 3, seed: 11 + workers },
      );
    },
    60_000,
  );
});
