import { describe, expect, it } from 'vitest';
import { uploadFormSchema } from '@pa/contracts/power7';
import { uploadFields } from '../hooks/use-customer-upload';
import { EMPTY_FORM } from '../hooks/use-params-form';

const payouts = { payout_3: '1', payout_4: '0', payout_5: '50', payout_6: '500', payout_7: '5000' };

describe('the parameters step form', () => {
  it('sends only the fields of the chosen budget type', () => {
    const fixed = { ...EMPTY_FORM, ...payouts, budget: '100', budget_min: '1', budget_max: '2' };
    expect(uploadFields(fixed)).toEqual({
      budget_type: 'fixed',
      budget: '100',
      ...payouts,
      pool_size: '35',
    });
    const range = { ...fixed, budget_type: 'range' as const, pool_size: ' ' };
    expect(uploadFields(range)).toEqual({
      budget_type: 'range',
      budget_min: '1',
      budget_max: '2',
      ...payouts,
    });
  });

  it('starts empty and is refused until the budget and the payouts are given', () => {
    const result = uploadFormSchema.safeParse(EMPTY_FORM);
    expect(result.success ? [] : result.error.issues.map((i) => i.path[0])).toEqual([
      'budget',
      'payout_3',
      'payout_4',
      'payout_5',
      'payout_6',
      'payout_7',
    ]);
    expect(uploadFormSchema.safeParse({ ...EMPTY_FORM, ...payouts, budget: '5' }).success).toBe(
      true,
    );
  });
});
