import { describe, expect, it } from 'vitest';
import {
  rerunBodySchema,
  sessionEditSchema,
  uploadFormFromParams,
  uploadFormSchema,
  withoutThousandsSeparators,
} from './power7';
import { detectColumns, detectDelimiter } from './power7-file';

const payouts = { payout_3: '1', payout_4: '5', payout_5: '50', payout_6: '500', payout_7: '5000' };
const fieldsOf = (result: ReturnType<typeof uploadFormSchema.safeParse>) =>
  result.success ? [] : result.error.issues.map((i) => i.path[0]);

describe('uploadFormSchema', () => {
  it('reads a fixed budget, ignoring the range fields, with the default pool', () => {
    const parsed = uploadFormSchema.parse({
      budget_type: 'fixed',
      budget: ' 270000.5 ',
      budget_min: 'junk',
      ...payouts,
    });
    expect(parsed).toEqual({
      budget_type: 'fixed',
      budget: 270000.5,
      budget_min: null,
      budget_max: null,
      payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
      pool_size: 35,
    });
  });

  it('reads a range and names max when it is below min', () => {
    const ok = uploadFormSchema.parse({
      budget_type: 'range',
      budget_min: '10',
      budget_max: '20',
      pool_size: '49',
      ...payouts,
    });
    expect(ok).toMatchObject({ budget: null, budget_min: 10, budget_max: 20, pool_size: 49 });
    const bad = uploadFormSchema.safeParse({
      budget_type: 'range',
      budget_min: '30',
      budget_max: '20',
      ...payouts,
    });
    expect(fieldsOf(bad)).toEqual(['budget_max']);
  });

  it('says how to write an amount typed with thousands separators', () => {
    const bad = uploadFormSchema.safeParse({ budget_type: 'fixed', budget: '10,000', ...payouts });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual([
      'Use digits only, no thousands separators: 10000',
    ]);
    const word = uploadFormSchema.safeParse({ budget_type: 'fixed', budget: 'ten', ...payouts });
    expect(word.success ? [] : word.error.issues.map((i) => i.message)).toEqual([
      'The budget must be a number ≥ 0.',
    ]);
    expect(withoutThousandsSeparators('1,234,567.5')).toBe('1234567.5');
    expect(withoutThousandsSeparators('1 000')).toBe('1000');
    expect(withoutThousandsSeparators('10,00')).toBeNull();
  });

  it('names every bad field once, with the payout rules', () => {
    const bad = uploadFormSchema.safeParse({
      budget_type: 'fixed',
      budget: '',
      payout_3: '-1',
      payout_4: '1.005',
      payout_5: '2e13',
      payout_6: 'lots',
      payout_7: '1e13',
      pool_size: '7',
    });
    expect(fieldsOf(bad)).toEqual([
      'budget',
      'payout_3',
      'payout_4',
      'payout_5',
      'payout_6',
      'payout_7',
      'pool_size',
    ]);
    const zero = uploadFormSchema.safeParse({
      budget_type: 'fixed',
      budget: '1',
      payout_3: '0',
      payout_4: '0',
      payout_5: '0.00',
      payout_6: '0',
      payout_7: '0',
    });
    expect(zero.success ? [] : zero.error.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['payout_3', 'At least one payout must be greater than 0.'],
    ]);
    const tooBig = uploadFormSchema.safeParse({
      budget_type: 'fixed',
      budget: '1000000000001',
      ...payouts,
    });
    expect(tooBig.success ? '' : tooBig.error.issues[0]!.message).toBe(
      'The budget must not exceed 1000000000000.',
    );
  });

  it('refuses an unknown budget type', () => {
    expect(fieldsOf(uploadFormSchema.safeParse({ budget_type: 'weekly', ...payouts }))).toEqual([
      'budget_type',
    ]);
  });

  it('turns a session back into the form it came from', () => {
    const form = {
      budget_type: 'range',
      budget_min: '1',
      budget_max: '2.5',
      pool_size: '40',
      ...payouts,
    };
    const params = uploadFormSchema.parse(form);
    expect(uploadFormSchema.parse(uploadFormFromParams(params))).toEqual(params);
    expect(uploadFormFromParams(params)).toMatchObject({
      budget: '',
      budget_max: '2.5',
      pool_size: '40',
    });
  });
});

describe('header rules', () => {
  it('finds seven number columns or one numbers column, and the customer columns', () => {
    expect(
      detectColumns(['Customer ID', 'Name', 'N1', 'n2', 'n_3', 'N 4', 'n5', 'n6', 'number7']),
    ).toMatchObject({
      numbers: { kind: 'seven', indexes: [2, 3, 4, 5, 6, 7, 8] },
      id: 0,
      name: 1,
      phone: -1,
    });
    expect(detectColumns(['mobile', 'Combination'])).toMatchObject({
      numbers: { kind: 'single', index: 1 },
      phone: 0,
    });
    expect(detectColumns(['a', 'b'])).toBeNull();
  });

  it('picks the delimiter the first line holds most of, outside quotes', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(detectDelimiter(bytes('a;b;c\n1,2,3,4'))).toBe(0x3b);
    expect(detectDelimiter(bytes('"x;y;z",b'))).toBe(0x2c);
  });
});

describe('rerun and session edits (issue #25)', () => {
  it('takes the upload fields as text or numbers, with the upload rules and an optional currency', () => {
    const params = rerunBodySchema.parse({
      budget_type: 'fixed',
      budget: 900,
      ...payouts,
      payout_7: 8000,
      pool_size: 20,
      currency: 'eur',
    });
    expect(params).toMatchObject({ budget: 900, pool_size: 20, currency: 'EUR' });
    expect(params.payouts[7]).toBe(8000);
    const bad = rerunBodySchema.safeParse({
      budget_type: 'fixed',
      budget: -1,
      ...payouts,
      currency: 'XX',
    });
    expect(bad.error?.issues.map((i) => i.path[0])).toEqual(['budget', 'currency']);
    expect(
      rerunBodySchema.safeParse({ budget_type: 'fixed', budget: 1, ...payouts, x: 1 }).success,
    ).toBe(false);
  });

  it('names and notes a session with safe, bounded text', () => {
    expect(sessionEditSchema.parse({ name: '  Week 46 ' })).toEqual({ name: 'Week 46' });
    expect(sessionEditSchema.safeParse({ name: 'a\nb' }).success).toBe(false);
    expect(sessionEditSchema.safeParse({ note: 'a\nb' }).success).toBe(true);
    expect(sessionEditSchema.safeParse({ name: 'x'.repeat(121) }).success).toBe(false);
    expect(sessionEditSchema.safeParse({ name: 'a\u202eb' }).success).toBe(false);
    expect(sessionEditSchema.safeParse({}).success).toBe(false);
  });
});
