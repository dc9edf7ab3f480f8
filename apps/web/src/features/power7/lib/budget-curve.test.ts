import { describe, expect, it } from 'vitest';
import { budgetCurve, budgetForShare, coverageOf } from './budget-curve';

// 10 draws: totals in [0,10): 2, [10,20): 0, [20,30): 5, [30,40]: 3
const stats = {
  draws: 10,
  min: 2,
  max: 40,
  histogram: { edges: [0, 10, 20, 30, 40], counts: [2, 0, 5, 3] },
};

describe('budget curve', () => {
  it('gives the exact share of draws below each edge, all at the last', () => {
    expect(budgetCurve(stats.histogram, stats.draws)).toEqual([
      { budget: 0, share: 0 },
      { budget: 10, share: 0.2 },
      { budget: 20, share: 0.2 },
      { budget: 30, share: 0.7 },
      { budget: 40, share: 1 },
    ]);
  });

  it('reads a budget: none below the smallest total, all from the largest, bounds inside a bin', () => {
    expect(coverageOf(1, stats)).toEqual({ low: 0, high: 0, exact: true });
    expect(coverageOf(40, stats)).toEqual({ low: 1, high: 1, exact: true });
    expect(coverageOf(15, stats)).toEqual({ low: 0.2, high: 0.2, exact: true });
    expect(coverageOf(25, stats)).toEqual({ low: 0.2, high: 0.7, exact: false });
  });

  it('reads the finer curve histogram when the service sends one', () => {
    const fine = {
      ...stats,
      curve: { edges: [0, 5, 10, 20, 25, 30, 40], counts: [2, 0, 0, 5, 0, 3] },
    };
    expect(coverageOf(25, fine)).toEqual({ low: 0.7, high: 0.7, exact: true });
    expect(coverageOf(22, fine)).toEqual({ low: 0.2, high: 0.7, exact: false });
  });

  it('finds the budget that surely covers a share', () => {
    expect(budgetForShare(stats.histogram, stats.draws, 0.5)).toBe(30);
    expect(budgetForShare(stats.histogram, stats.draws, 0.99)).toBe(40);
  });
});
