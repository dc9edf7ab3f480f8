import { describe, expect, it } from 'vitest';
import { doneStatus } from '@/testing/power7';
import { countRows, formatDateTime, parameterRows, reportTitle } from './report';

const status = doneStatus;

const valueOf = (rows: { label: string; value: string }[], label: string) =>
  rows.find((r) => r.label === label)?.value;

describe('reportTitle', () => {
  it('prefers a session name, then the file name, then a generic title', () => {
    expect(reportTitle({ originalName: 'a.csv', name: ' Week 48 ' })).toBe('Week 48');
    expect(reportTitle({ originalName: 'a.csv', name: '  ' })).toBe('a.csv');
    expect(reportTitle({ originalName: null })).toBe('Power 7 analysis');
  });
});

describe('parameterRows', () => {
  it('lists the file, the pool, the tickets, the payouts from 7 down and a fixed budget', () => {
    const rows = parameterRows(status());
    expect(valueOf(rows, 'File')).toBe('customers.csv (2.0 KB)');
    expect(valueOf(rows, 'Pool')).toBe('numbers 1 to 35, 7 drawn');
    expect(valueOf(rows, 'Tickets accepted')).toBe('3,000');
    expect(valueOf(rows, 'Rows rejected')).toBe('10');
    expect(rows.filter((r) => r.label.startsWith('Payout')).map((r) => r.value)).toEqual([
      '5,000.00',
      '500.00',
      '50.00',
      '5.00',
      '1.00',
    ]);
    expect(valueOf(rows, 'Budget (fixed)')).toBe('at most 2,000.00');
  });

  it('gives both ends of a range, in the session currency when there is one', () => {
    const rows = parameterRows(
      status({
        params: {
          ...status().params,
          budget_type: 'range',
          budget_min: 100,
          budget_max: 900,
          currency: 'EUR',
        },
      }),
    );
    expect(valueOf(rows, 'Budget (range)')).toBe('from €100.00 to €900.00');
    expect(valueOf(rows, 'Payout, 7 matches')).toBe('€5,000.00');
    expect(valueOf(rows, 'Currency')).toBe('EUR');
    expect(valueOf(parameterRows(status()), 'Currency')).toBe('none named');
  });

  it('shows a dash for a count the session does not have', () => {
    expect(valueOf(parameterRows(status({ counts: {} })), 'Rows read')).toBe('—');
  });
});

describe('countRows', () => {
  it('counts the draws within the budget and above it, each with its share', () => {
    expect(countRows(status())).toEqual([
      { label: 'Possible draws, C(35, 7)', value: '6,724,520' },
      { label: 'Draws within the budget', value: '89.2 % (6,000,000 of 6,724,520)' },
      { label: 'Draws above the budget', value: '10.8 % (724,520 of 6,724,520)' },
    ]);
  });

  it('says how many draws of a range cost less than its minimum and more than its maximum', () => {
    const range = status({
      params: { ...status().params, budget_type: 'range', budget_min: 100, budget_max: 900 },
      counts: { draws: 1000, drawsQualified: 68 },
    });
    expect(countRows(range, { below: 914, above: 18 })).toEqual([
      { label: 'Possible draws, C(35, 7)', value: '1,000' },
      { label: 'Draws within the budget range', value: '6.8 % (68 of 1,000)' },
      { label: 'Draws below its minimum (cost less)', value: '91.4 % (914 of 1,000)' },
      { label: 'Draws above its maximum (cost more)', value: '1.8 % (18 of 1,000)' },
    ]);
    // before the insight answers, the sides are a dash
    expect(
      countRows(range)
        .map((r) => r.value)
        .slice(2),
    ).toEqual(['—', '—']);
  });

  it('shows a dash without counts', () => {
    const rows = countRows(
      status({ counts: {}, params: { ...status().params, budget_type: 'range' } }),
    );
    expect(rows.map((r) => r.value)).toEqual(['—', '—', '—', '—']);
    expect(rows[1]!.label).toBe('Draws within the budget range');
  });
});

describe('formatDateTime', () => {
  it('writes the day in words and the time', () => {
    expect(formatDateTime('2026-11-26T05:12:00')).toMatch(/26 November 2026.*05:12/);
  });
});
