import { describe, expect, it } from 'vitest';
import { INSIGHT_MAX_BUDGETS } from '@pa/contracts/power7';
import { sharedBudgets } from './compare-tails';

describe('sharedBudgets', () => {
  it("spans every run's totals, holds each budget and one cent below each worst draw, rising", () => {
    const runs = [
      { min: 11_989, max: 48_023_350 },
      { min: 363, max: 17_235 },
    ];
    const budgets = sharedBudgets(runs, [400, 15_000]);
    expect(budgets[0]).toBe(363);
    expect(budgets.at(-1)).toBe(48_023_350);
    for (const must of [400, 15_000, 48_023_349.99, 17_234.99]) expect(budgets).toContain(must);
    expect(budgets.length).toBeLessThanOrEqual(INSIGHT_MAX_BUDGETS);
    expect([...budgets].sort((a, b) => a - b)).toEqual(budgets);
    expect(new Set(budgets).size).toBe(budgets.length);
    // log-spaced: the middle of the list sits near the geometric middle, not the arithmetic one
    const middle = budgets[Math.floor(budgets.length / 2)]!;
    expect(middle).toBeLessThan(1_000_000);
  });

  it('asks nothing before any run has answered, and leaves out a budget outside every run', () => {
    expect(sharedBudgets([], [400])).toEqual([]);
    expect(sharedBudgets([{ min: 100, max: 200 }], [5_000])).not.toContain(5_000);
  });
});
