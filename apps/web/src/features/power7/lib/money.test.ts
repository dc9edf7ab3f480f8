import { describe, expect, it } from 'vitest';
import type { SessionParams } from '@pa/contracts/power7';
import {
  budgetMoney,
  currencyOf,
  money,
  moneyOf,
  moneyShort,
  payoutsMoney,
  withUnit,
} from './money';

const params = (over: Partial<SessionParams> = {}): SessionParams => ({
  budget_type: 'fixed',
  budget: 15_000,
  budget_min: null,
  budget_max: null,
  payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 1_200_000 },
  pool_size: 35,
  ...over,
});

describe('money', () => {
  it('writes amounts with thousands separators and the currency symbol before them', () => {
    expect(money(1_234_567.5, 'EUR')).toBe('€1,234,567.50');
    expect(money(15_000, 'USD')).toBe('$15,000.00');
    expect(money(0.5, 'GBP')).toBe('£0.50');
    // a code without a symbol of its own keeps Intl's code-before-number style, not a suffix
    expect(money(1_000, 'CHF')).toMatch(/^CHF\s1,000\.00$/);
  });

  it('writes an amount without a currency (null, absent or empty) with separators and no symbol', () => {
    expect(money(48_023_350)).toBe('48,023,350.00');
    expect(money(48_023_350, null)).toBe('48,023,350.00');
    expect(money(11_989, '')).toBe('11,989.00');
  });

  it('reads the currency of a session, none when null, absent or blank', () => {
    expect(currencyOf({ currency: 'EUR' })).toBe('EUR');
    expect(currencyOf({ currency: null })).toBeUndefined();
    expect(currencyOf({ currency: '  ' })).toBeUndefined();
    expect(currencyOf({})).toBeUndefined();
    expect(currencyOf(undefined)).toBeUndefined();
    expect(moneyOf({ currency: 'EUR' })(2_500)).toBe('€2,500.00');
    expect(moneyOf({ currency: null })(2_500)).toBe('2,500.00');
  });

  it('shortens amounts for chart ticks in the same style', () => {
    expect(moneyShort(48_023_350, 'EUR')).toBe('€48M');
    expect(moneyShort(11_989)).toBe('12K');
  });

  it('names a unit only when there is one', () => {
    expect(withUnit('Total payout', 'EUR')).toBe('Total payout (EUR)');
    expect(withUnit('Total payout', null)).toBe('Total payout');
  });

  it("writes a session's budget and payouts in its currency", () => {
    expect(budgetMoney(params({ currency: 'EUR' }))).toBe('≤ €15,000.00');
    expect(budgetMoney(params())).toBe('≤ 15,000.00');
    expect(
      budgetMoney(
        params({
          budget_type: 'range',
          budget: null,
          budget_min: 1_000,
          budget_max: 5_000,
          currency: 'USD',
        }),
      ),
    ).toBe('$1,000.00 – $5,000.00');
    expect(payoutsMoney(params({ currency: 'EUR' }))).toBe(
      '€1.00 / €5.00 / €50.00 / €500.00 / €1,200,000.00',
    );
  });
});
