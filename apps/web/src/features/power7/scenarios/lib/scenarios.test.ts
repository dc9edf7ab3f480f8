import { describe, expect, it } from 'vitest';
import type { InsightAnswer } from '@pa/contracts/power7';
import {
  budgetsOf,
  byRunOrder,
  comparedFromSearch,
  compareLink,
  fileGroupOf,
  insightCsv,
  mergeInsight,
  rejectedWarning,
  runKind,
  runLabels,
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
  const session = {
    _id: 'ses-1',
    originalName: 'week "46", final.csv',
    params: {
      budget_type: 'fixed' as const,
      budget: 50,
      budget_min: null,
      budget_max: null,
      payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 1_200_000 },
      pool_size: 35,
      currency: 'EUR',
    },
  };
  /** The CSV's lines after the BOM, and its table's rows as objects by header. */
  function parse(csv: string) {
    expect(csv.startsWith('\uFEFF"# file: ')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    const header = lines[6]!.split(',');
    const rows = lines
      .slice(7)
      .map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell])));
    return { lines, header, rows };
  }

  it('starts the insight CSV with its parameters, each line one quoted cell', () => {
    const { lines } = parse(insightCsv(insight, session));
    expect(lines.slice(0, 6)).toEqual([
      '"# file: week ""46"", final.csv"',
      '"# session: ses-1"',
      '"# pool: numbers 1 to 35, 7 drawn (10 draws)"',
      '"# payouts: 3 matches 1; 4 matches 5; 5 matches 50; 6 matches 500; 7 matches 1200000"',
      '"# budget: fixed, at most 50"',
      '"# currency: EUR"',
    ]);
    const range = insightCsv(insight, {
      ...session,
      params: {
        ...session.params,
        budget_type: 'range',
        budget: null,
        budget_min: 10,
        budget_max: 50,
        currency: undefined as unknown as string,
      },
    });
    expect(range).toContain('"# budget: range, from 10 to 50"\r\n"# currency: none named"\r\n');
    // no currency: the amount columns carry no unit
    expect(parse(range).header).toContain('budget');
  });

  it('writes one unit per column: amounts, counts of draws and shares apart', () => {
    const { header, rows } = parse(insightCsv(insight, session));
    expect(header).toEqual([
      'row',
      'level',
      'budget (EUR)',
      'range minimum (EUR)',
      'draws covered',
      'share covered',
      'draws below the minimum',
      'draws exceeding',
      'chance of exceeding',
      'expected excess (EUR)',
      'mean overshoot when exceeded (EUR)',
      'total (EUR)',
      'draws',
      'share of draws',
      'combination',
    ]);
    expect(rows.find((r) => r.row === 'budget')).toMatchObject({
      'budget (EUR)': '50',
      'draws covered': '8',
      'share covered': '0.8',
      'draws exceeding': '2',
      'chance of exceeding': '0.2',
      'expected excess (EUR)': '7.5',
      'mean overshoot when exceeded (EUR)': '37.5',
      'total (EUR)': '',
    });
    const p999 = rows.find((r) => r.row === 'budget for a share of draws' && r.level === '0.999');
    expect(p999).toMatchObject({ 'budget (EUR)': '90', 'total (EUR)': '' });
    expect(rows.find((r) => r.row === 'worst draw')).toMatchObject({
      'total (EUR)': '90',
      combination: '3-8-12-19-24-30-35',
      'share of draws': '',
    });
    expect(rows.find((r) => r.row === 'draws with a 7-match winner')).toMatchObject({
      draws: '1',
      'share of draws': '0.1',
      'total (EUR)': '',
    });
  });

  it('holds every budget, range, limit and shortfall the insight was asked, each once', () => {
    const other: InsightAnswer = {
      ...insight,
      budgets: [
        { ...insight.budgets[0]! },
        {
          budget: 20,
          covered: 5,
          share: 0.5,
          exceedProbability: 0.5,
          expectedExcess: 12,
          exceeding: 5,
          meanOvershoot: 24,
        },
      ],
      ranges: [{ min: 10, max: 50, within: 6, share: 0.6, below: 2, above: 2 }],
      limits: [{ exceedProbability: 0.1, budget: 80, exceeding: 1 }],
      excessLimits: [{ expectedExcess: 5, budget: 60.01 }],
      shortfall: [{ level: 0.9, draws: 1, value: 90 }],
    };
    const merged = mergeInsight([insight, other])!;
    expect(merged.budgets.map((b) => b.budget)).toEqual([20, 50]);
    expect(mergeInsight([])).toBeNull();
    const { rows } = parse(insightCsv(merged, session));
    expect(rows.filter((r) => r.row === 'budget').map((r) => r['budget (EUR)'])).toEqual([
      '20',
      '50',
    ]);
    expect(rows.find((r) => r.row === 'budget range')).toMatchObject({
      'range minimum (EUR)': '10',
      'budget (EUR)': '50',
      'draws covered': '6',
      'draws below the minimum': '2',
      'draws exceeding': '2',
      'chance of exceeding': '0.2',
    });
    expect(rows.find((r) => r.row === 'limit for a chance of exceeding')).toMatchObject({
      level: '0.1',
      'budget (EUR)': '80',
      'draws exceeding': '1',
    });
    expect(rows.find((r) => r.row === 'limit for an expected excess')).toMatchObject({
      'expected excess (EUR)': '5',
      'budget (EUR)': '60.01',
    });
    expect(rows.find((r) => r.row === 'expected shortfall')).toMatchObject({
      level: '0.9',
      'total (EUR)': '90',
      draws: '1',
    });
  });
});

describe('runs of one file', () => {
  const params = {
    budget_type: 'fixed' as const,
    budget: 400,
    budget_min: null,
    budget_max: null,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    pool_size: 20,
  };
  const upload = { _id: 'u', sourceSessionId: null, createdAt: '2026-11-28T10:00:00Z', params };
  const rerunA = {
    _id: 'a',
    sourceSessionId: 'u',
    createdAt: '2026-11-28T11:00:00Z',
    name: 'Week 46, higher jackpot',
    params: { ...params, budget: 900, currency: 'EUR' },
  };
  const rerunB = {
    _id: 'b',
    sourceSessionId: 'u',
    createdAt: '2026-11-28T12:00:00Z',
    params: { ...params, payouts: { ...params.payouts, 7: 8000 } },
  };
  const rerunC = { ...rerunB, _id: 'c', createdAt: '2026-11-28T12:30:00Z' };

  it('orders them upload first, then the reruns oldest first, whatever order they come in', () => {
    expect([rerunB, rerunA, upload].sort(byRunOrder).map((s) => s._id)).toEqual(['u', 'a', 'b']);
    expect(runKind(upload)).toBe('upload');
    expect(runKind(rerunA)).toBe('rerun');
  });

  it('names each by its name or its kind and budget, adding what tells alike runs apart', () => {
    const labels = runLabels([upload, rerunA, rerunB]);
    expect(labels.get('u')).toBe('Upload, budget ≤ 400.00');
    expect(labels.get('a')).toBe('Week 46, higher jackpot (rerun)');
    expect(labels.get('b')).toBe('Rerun, budget ≤ 400.00');
    // two reruns alike but for the time they were made
    const alike = runLabels([upload, rerunB, rerunC]);
    expect(alike.get('b')).toMatch(
      /^Rerun, budget ≤ 400\.00, payouts 1\.00 \/ 5\.00 \/ 50\.00 \/ 500\.00 \/ 8,000\.00, made 28 Nov(,)? \d\d:\d\d$/,
    );
    expect(alike.get('b')).not.toBe(alike.get('c'));
    expect(alike.get('u')).toBe('Upload, budget ≤ 400.00');
  });
});
