import { describe, expect, it } from 'vitest';
import { answerOverTotals } from '@/testing/power7';
import { formatMoney } from './format';
import {
  budgetCurve,
  coverageOf,
  histogramBins,
  histogramEdges,
  insightBodyFor,
  nothingQualifiesReason,
  parseTypedAmount,
} from './insight';

/** Totals of a heavy-tailed file: most draws pay little, one pays far more. */
const TOTALS = [0, 0, 5, 5, 5, 12, 30, 30, 80, 250_000];

/** What the service answers for `budgets` and `ranges`, counted over TOTALS. */
const answerFor = (budgets: number[], ranges: { min: number; max: number }[] = []) =>
  answerOverTotals(
    TOTALS,
    {
      quantiles: {
        50: 5,
        90: 80,
        95: 250_000,
        99: 250_000,
        '99.9': 250_000,
        '99.99': 250_000,
        '99.999': 250_000,
      },
      jackpotDraws: 1,
    },
    budgets,
    ranges,
  );

describe('histogram over a heavy tail', () => {
  it('spaces edges on a log scale, in cents, with the budget as an edge', () => {
    const edges = histogramEdges(0, 250_000, 10, [20]);
    expect(edges[0]).toBe(0);
    expect(edges.at(-1)).toBe(250_000);
    expect(edges).toContain(20);
    expect([...edges].sort((a, b) => a - b)).toEqual(edges);
    expect(new Set(edges).size).toBe(edges.length);
    for (const edge of edges) expect(Math.round(edge * 100)).toBeCloseTo(edge * 100, 6);
    // the tail has bins of its own: most edges lie below 1 % of the largest total
    expect(edges.filter((e) => e < 2_500).length).toBeGreaterThan(edges.length / 2);
  });

  it('counts every draw once, exactly, and the worst draw sits in the last bin', () => {
    const edges = histogramEdges(0, 250_000, 12, [20]);
    const answer = answerFor(insightBodyFor('s', edges, { min: null, max: 20 }).budgets!);
    const bins = histogramBins(answer, edges);
    expect(bins.reduce((s, b) => s + b.draws, 0)).toBe(TOTALS.length);
    for (const bin of bins) {
      const expected = TOTALS.filter(
        (t) => (t > bin.from || (bin === bins[0] && t >= bin.from)) && t <= bin.to,
      ).length;
      expect(bin.draws).toBe(expected);
    }
    expect(bins.at(-1)!.draws).toBe(1);
  });

  it('has one bin when every draw pays the same', () => {
    expect(histogramEdges(7, 7)).toEqual([7]);
    expect(histogramBins(answerFor([7]), [7])).toEqual([{ from: 0, to: 250_000, draws: 10 }]);
  });
});

describe('coverage of the session budget', () => {
  it('reads a fixed budget and a range (both ends count) exactly', () => {
    const fixed = coverageOf(answerFor([30]), { min: null, max: 30 });
    expect(fixed).toMatchObject({ draws: 8, share: 0.8, exceedProbability: 0.2 });
    const range = coverageOf(answerFor([30], [{ min: 5, max: 30 }]), { min: 5, max: 30 });
    expect(range).toMatchObject({ draws: 6, share: 0.6 });
  });

  it('draws the curve from the budgets asked, in order', () => {
    const points = budgetCurve(answerFor([80, 0, 30]));
    expect(points.map((p) => [p.budget, p.covered])).toEqual([
      [0, 2],
      [30, 8],
      [80, 9],
    ]);
  });

  it('says why nothing qualifies and what the smallest total is', () => {
    expect(nothingQualifiesReason({ min: null, max: 10 }, 1234.5, (v) => formatMoney(v))).toBe(
      'The budget (10.00) is below the smallest total payout of any draw, 1,234.50: every draw pays more. A budget of at least 1,234.50 covers the cheapest draw.',
    );
    expect(nothingQualifiesReason({ min: 40, max: 70 }, 0, (v) => formatMoney(v))).toContain(
      'between 40.00 and 70.00',
    );
  });
});

describe('typed amounts and money', () => {
  it('refuses thousands separators with the way to write the amount', () => {
    expect(parseTypedAmount('10,000')).toEqual({
      error: 'Use digits only, no thousands separators: 10000',
    });
    expect(parseTypedAmount(' 2500.5 ')).toEqual({ value: 2500.5 });
    expect(parseTypedAmount('')).toEqual({ error: 'The budget is required.' });
    expect(parseTypedAmount('1.234')).toEqual({ error: 'The budget must be a number ≥ 0.' });
  });

  it('formats with two decimals, and in a currency when one is known', () => {
    expect(formatMoney(1234567.5)).toBe('1,234,567.50');
    expect(formatMoney(1234.5, 'USD')).toBe('$1,234.50');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(12, 'not a code')).toBe('12.00');
  });
});
