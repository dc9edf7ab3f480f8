import { describe, expect, it } from 'vitest';
import { INSIGHT_MAX_BUDGETS } from '@pa/contracts/power7';
import { answerOverTotals } from '@/testing/power7';
import {
  chanceTickLabel,
  chanceTicks,
  exceedanceCurve,
  riskBodyFor,
  worstDrawPoint,
} from './exceedance';

/** A heavy tail: 1,000 draws, most pay little, three pay the jackpot's 38M. */
const TOTALS = [
  ...Array.from({ length: 990 }, (_, i) => (i % 100) * 10),
  ...Array.from({ length: 7 }, () => 882_000),
  38_000_000,
  38_000_000,
  38_000_000,
];
const QUANTILES = {
  50: 490,
  90: 890,
  95: 940,
  99: 990,
  '99.9': 38_000_000,
  '99.99': 38_000_000,
  '99.999': 38_000_000,
};

/** What the service answers for `budgets`, counted over TOTALS. */
const answerFor = (budgets: number[]) =>
  answerOverTotals(TOTALS, { quantiles: QUANTILES, jackpotDraws: 3 }, budgets);

describe('the exceedance curve of a heavy tail', () => {
  const body = riskBodyFor(
    's',
    { min: 0, max: 38_000_000, quantiles: QUANTILES },
    {
      min: null,
      max: 1_000,
    },
  );

  it('asks log-spaced amounts, the quantiles, the budget and one cent below the worst', () => {
    const budgets = body.budgets!;
    expect(budgets.length).toBeLessThanOrEqual(INSIGHT_MAX_BUDGETS);
    expect(budgets).toEqual([...budgets].sort((a, b) => a - b));
    for (const amount of [0, 1_000, 490, 990, 37_999_999.99, 38_000_000]) {
      expect(budgets).toContain(amount);
    }
    // the tail has points of its own: several amounts between 882K and 38M
    expect(budgets.filter((b) => b > 882_000 && b < 38_000_000).length).toBeGreaterThan(3);
    expect(body.exceedTargets).toContain(0);
    expect(body.shortfallLevels).toEqual([0.99, 0.999, 0.9999]);
  });

  it('keeps every chance above zero, down to the 3 jackpot draws, and marks the worst', () => {
    const answer = answerFor(body.budgets!);
    const curve = exceedanceCurve(answer);
    expect(curve.every((p) => p.chance > 0)).toBe(true);
    expect(curve.at(-1)).toEqual({ amount: 37_999_999.99, exceeding: 3, chance: 0.003 });
    expect(curve.find((p) => p.amount === 1_000)).toMatchObject({ exceeding: 10 });
    expect(worstDrawPoint(answer)).toEqual({ amount: 38_000_000, exceeding: 3, chance: 0.003 });
  });

  it('labels the log axis down to 1 in the number of draws', () => {
    expect(chanceTicks(6_724_520)).toEqual([0, -1, -2, -3, -4, -5, -6, -7]);
    expect(chanceTicks(792)).toEqual([0, -1, -2, -3]);
    expect(chanceTickLabel(0)).toBe('100 %');
    expect(chanceTickLabel(-2)).toBe('1 %');
    expect(chanceTickLabel(-3)).toBe('1 in 1K');
    expect(chanceTickLabel(-6)).toBe('1 in 1M');
  });
});
