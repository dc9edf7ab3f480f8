import { describe, expect, it, beforeAll } from 'vitest';
import { customerCsv, DEFAULT_FIELDS, totalsOfEveryDraw } from './helper';
import { useOwnApp } from './own-app';

/**
 * `POST /api/insight/` on a heavy-tailed file (one ticket bought 300 times: the draw it names pays far
 * above the rest), checked against every draw of a small pool counted here, the obvious way.
 */
const POOL = 12;
const PAYOUTS = [10, 100, 1_000, 10_000, 1_000_000];

const own = useOwnApp();
let session: string;
let totals: number[];
let tickets: number[][];

const insight = (payload: object, headers = own.auth()) =>
  own.app.inject({ method: 'POST', url: '/api/insight/', headers, payload });

beforeAll(async () => {
  const lines = customerCsv(400, POOL, 5).trim().split('\n');
  const hot = lines[1]!;
  const csv = [...lines, ...Array.from({ length: 300 }, () => hot)].join('\n') + '\n';
  tickets = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').slice(3, 10).map(Number));
  session = await own.upload(csv, {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    budget: '10000',
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
  });
  expect((await own.finished(session)).status).toBe('done');
  totals = totalsOfEveryDraw(tickets, POOL, PAYOUTS).sort((a, b) => a - b);
}, 120_000);

describe('POST /api/insight/', () => {
  it('answers every figure exactly, at budgets inside the tail and between totals', async () => {
    const n = totals.length;
    const budgets = [0, 5_000, 10_000, totals[Math.floor(n / 2)]!, totals[n - 1]! - 1, 1e9];
    const ranges = [
      { min: 2_000, max: 3_000 },
      { min: totals[10]!, max: totals[n - 10]! },
    ];
    const res = await insight({ session, budgets, ranges });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.draws).toBe(n);
    expect(data.min).toBe(totals[0]);
    expect(data.max).toBe(totals[n - 1]);
    expect(data.max).toBeGreaterThan(300 * 1_000_000); // the hot ticket's own draw
    for (const q of ['50', '90', '95', '99', '99.9']) {
      expect(data.quantiles[q], q).toBe(totals[Math.max(1, Math.ceil((Number(q) * n) / 100)) - 1]);
    }
    expect(data.jackpotDraws).toBe(new Set(tickets.map((t) => t.join('-'))).size);
    expect(data.worst.totalPayout).toBe(totals[n - 1]);
    budgets.forEach((budget, i) => {
      const covered = totals.filter((t) => t <= budget).length;
      const excess = totals.reduce((s, t) => s + Math.max(0, t - budget), 0);
      expect(data.budgets[i], `budget ${budget}`).toEqual({
        budget,
        covered,
        share: covered / n,
        exceedProbability: (n - covered) / n,
        expectedExcess: Math.round((excess / n) * 100) / 100,
      });
    });
    ranges.forEach((r, i) => {
      const within = totals.filter((t) => t >= r.min && t <= r.max).length;
      expect(data.ranges[i]).toEqual({ ...r, within, share: within / n });
    });
  });

  it('refuses bad questions with a 400 naming the field, and other users’ sessions with 404', async () => {
    const cases: [object, string][] = [
      [{ session, budgets: Array.from({ length: 51 }, (_, i) => i) }, 'budgets'],
      [{ session, budgets: [-1] }, 'budgets.0'],
      [{ session, budgets: [1.234] }, 'budgets.0'],
      [{ session, ranges: [{ min: 5, max: 1 }] }, 'ranges.0.max'],
      [{ session, budget: 5 }, 'budget'],
    ];
    for (const [payload, field] of cases) {
      const res = await insight(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().errors), JSON.stringify(payload)).toContain(field);
    }
    const stranger = await own.keys.sign({ sub: 'another-user' });
    const res = await insight({ session, budgets: [1] }, { authorization: `Bearer ${stranger}` });
    expect(res.statusCode).toBe(404);
  });
});
