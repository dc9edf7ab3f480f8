import { describe, expect, it } from 'vitest';
import { formatMoney } from '../lib/format';
import { excessText, rangeSidesText, shareOfDraws } from './insight-summary';

const money = (v: number) => formatMoney(v, 'EUR');

describe('the insight read-outs never round a real chance away', () => {
  it('gives the counts, and "1 in N" under 1 %', () => {
    expect(shareOfDraws(6_724_519, 6_724_520)).toBe('> 99.99 % of draws (6,724,519 of 6,724,520)');
    expect(shareOfDraws(1, 6_724_520)).toBe(
      '< 0.01 % of draws (1 of 6,724,520, 1 in 6,724,520 draws)',
    );
  });

  it('says the chance of paying more with its count and the mean overshoot', () => {
    const ceiling = {
      exceeding: 1,
      expectedExcess: 5.65,
      meanOvershoot: 38_000_000,
      budget: 22_236.49,
    };
    expect(excessText(ceiling, 6_724_520, money)).toBe(
      'Chance a draw pays more than €22,236.49: < 0.01 % (1 of 6,724,520, 1 in 6,724,520 draws). Expected excess over it, averaged over all draws: €5.65; when it is exceeded, by €38,000,000.00 on average.',
    );
    expect(excessText({ ...ceiling, exceeding: 0, meanOvershoot: null }, 10, money)).toBe(
      'No draw pays more than €22,236.49.',
    );
  });

  it("says a range's two sides", () => {
    expect(rangeSidesText(914, 18, 1_000, 100, 500, money)).toBe(
      'Outside it: 91.4 % of draws (914 of 1,000) pay less than its minimum of €100.00; 1.8 % (18 of 1,000) pay more than its maximum of €500.00.',
    );
  });
});
