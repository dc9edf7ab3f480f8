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
        exceeding: n - covered,
        meanOvershoot: n > covered ? Math.round((excess / (n - covered)) * 100) / 100 : null,
      });
    });
    ranges.forEach((r, i) => {
      const within = totals.filter((t) => t >= r.min && t <= r.max).length;
      const below = totals.filter((t) => t < r.min).length;
      const above = totals.filter((t) => t > r.max).length;
      expect(data.ranges[i]).toEqual({ ...r, within, share: within / n, below, above });
    });
  });

  it('finds the limits for chances and expected excesses, and the expected shortfall, exactly', async () => {
    const n = totals.length;
    // one in the number of draws: only the hot ticket's own draw may be above the limit
    const exceedTargets = [0, 1 / n, 0.001, 0.01, 0.5];
    const excessTargets = [0, 1, 100, 1e6];
    const shortfallLevels = [0.5, 0.99, 0.999];
    const res = await insight({ session, exceedTargets, excessTargets, shortfallLevels });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.limits[0]).toEqual({ exceedProbability: 0, budget: totals[n - 1], exceeding: 0 });
    exceedTargets.forEach((p, i) => {
      const allowed = Math.floor(p * n);
      const budget = totals[n - allowed - 1]!;
      const exceeding = totals.filter((t) => t > budget).length;
      expect(data.limits[i], `p ${p}`).toEqual({ exceedProbability: p, budget, exceeding });
    });
    // whole-currency payouts: the smallest whole budget meets the target, one cent less does not
    const excessAt = (budget: number) =>
      totals.reduce((s, t) => s + Math.max(0, t - budget), 0) / n;
    excessTargets.forEach((target, i) => {
      const { budget } = data.excessLimits[i];
      expect(excessAt(budget), `excess ${target}`).toBeLessThanOrEqual(target);
      if (budget > 0) expect(excessAt(budget - 0.01)).toBeGreaterThan(target);
    });
    shortfallLevels.forEach((level, i) => {
      const k = Math.ceil((Math.round((1 - level) * 1000) * n) / 1000);
      const mean = totals.slice(n - k).reduce((s, t) => s + t, 0) / k;
      expect(data.shortfall[i], `level ${level}`).toEqual({
        level,
        draws: k,
        value: Math.round(mean * 100) / 100,
      });
    });
    expect(data.quantiles['99.999']).toBe(totals[Math.ceil((99.999 / 100) * n) - 1]);
  });

  it('refuses bad questions with a 400 naming the field, and other users’ sessions with 404', async () => {
    const cases: [object, string][] = [
      [{ session, budgets: Array.from({ length: 51 }, (_, i) => i) }, 'budgets'],
      [{ session, budgets: [-1] }, 'budgets.0'],
      [{ session, budgets: [1.234] }, 'budgets.0'],
      [{ session, ranges: [{ min: 5, max: 1 }] }, 'ranges.0.max'],
      [{ session, budget: 5 }, 'budget'],
      [{ session, exceedTargets: [1] }, 'less than 1'],
      [{ session, exceedTargets: [-0.1] }, 'at least 0'],
      [{ session, excessTargets: [-5] }, 'at least 0'],
      [{ session, shortfallLevels: [0] }, 'more than 0'],
      [{ session, exceedTargets: Array.from({ length: 21 }, () => 0.1) }, 'at most 20'],
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
