import { describe, expect, it } from 'vitest';
import type { InsightAnswer } from '@pa/contracts/power7';
import {
  budgetsOf,
  comparedFromSearch,
  compareLink,
  fileGroupOf,
  insightCsv,
  rejectedWarning,
} from './scenarios';

describe('scenarios', () => {
  it('groups the sessions of one file by the upload their tickets came from', () => {
    expect(fileGroupOf({ _id: 'a', sourceSessionId: null })).toBe('a');
    expect(fileGroupOf({ _id: 'b', sourceSessionId: 'a' })).toBe('a');
  });

  it('reads at most three distinct compared sessions from the URL, and links them', () => {
    expect(comparedFromSearch(new URLSearchParams('sessions=a,b,,a,c,d'))).toEqual(['a', 'b', 'c']);
    expect(comparedFromSearch(new URLSearchParams(''))).toEqual([]);
    expect(compareLink(['a', 'b'])).toBe('/app/power7/compare?sessions=a,b');
  });

  it("asks the insight about a session's own budget or both ends of its range", () => {
    const base = { payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 }, pool_size: 35 };
    expect(
      budgetsOf({ ...base, budget_type: 'fixed', budget: 9, budget_min: null, budget_max: null }),
    ).toEqual([9]);
    expect(
      budgetsOf({ ...base, budget_type: 'range', budget: null, budget_min: 2, budget_max: 7 }),
    ).toEqual([2, 7]);
  });

  it('warns above 10 % rejected, naming the commonest reason', () => {
    const counts = { rowsRead: 1_000_000, rejected: 988_650 };
    expect(
      rejectedWarning({
        counts,
        rejectedReasons: { 'wrong field count': 988_000, 'number out of range': 650 },
      }),
    ).toEqual({ share: 0.98865, reason: 'wrong field count', count: 988_000 });
    expect(rejectedWarning({ counts: { rowsRead: 100, rejected: 10 } })).toBeNull();
    expect(rejectedWarning({ counts: { rowsRead: 100, rejected: 11 } })).toMatchObject({
      reason: null,
    });
  });

  it('writes the insight tables as a CSV a spreadsheet opens cleanly', () => {
    const insight: InsightAnswer = {
      draws: 10,
      min: 0,
      max: 90,
      mean: 20,
      quantiles: { 50: 10, 90: 80, 95: 85, 99: 90, '99.9': 90, '99.99': 90, '99.999': 90 },
      jackpotDraws: 1,
      jackpotShare: 0.1,
      worst: {
        combo: '3-8-12-19-24-30-35',
        totalPayout: 90,
        winners: { 3: 1, 4: 0, 5: 0, 6: 0, 7: 1 },
      },
      budgets: [
        {
          budget: 50,
          covered: 8,
          share: 0.8,
          exceedProbability: 0.2,
          expectedExcess: 7.5,
          exceeding: 2,
          meanOvershoot: 37.5,
        },
      ],
      ranges: [],
      limits: [],
      excessLimits: [],
      shortfall: [],
    };
    const csv = insightCsv(insight, 'EUR');
    expect(csv.startsWith('\uFEFFtable,')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toContain('expected excess (EUR)');
    expect(lines).toContain('percentile,99.9 %,90,,,');
    expect(lines).toContain('budget,50,8,0.8,0.2,7.5');
    expect(lines).toContain('worst draw,3-8-12-19-24-30-35,90,,,');
  });
});
