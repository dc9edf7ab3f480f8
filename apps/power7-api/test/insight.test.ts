import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from './helper';

/**
 * `POST /api/insight/` on a heavy-tailed file (one ticket bought 300 times: the draw it names pays far
 * above the rest), checked against every draw of a small pool counted here, the obvious way.
 */
const POOL = 12;
const PAYOUTS = [10, 100, 1_000, 10_000, 1_000_000];

let dir: string;
let app: FastifyInstance;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let token: string;
let session: string;
let totals: number[];
let tickets: number[][];
const auth = () => ({ authorization: `Bearer ${token}` });

function* draws(from = 1, picked: number[] = []): Generator<number[]> {
  if (picked.length === 7) {
    yield picked;
    return;
  }
  for (let n = from; n <= POOL; n++) yield* draws(n + 1, [...picked, n]);
}

async function upload(csv: string, extra: Record<string, string> = {}) {
  const fields = {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    budget: '10000',
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
    ...extra,
  };
  const body = multipart(fields, { name: 'c.csv', content: csv });
  const up = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...auth() },
  });
  expect(up.statusCode, up.body).toBe(202);
  return up.json().data._id as string;
}

const insight = (payload: object, headers = auth()) =>
  app.inject({ method: 'POST', url: '/api/insight/', headers, payload });

beforeAll(async () => {
  dir = await tempDir();
  keys = await makeKeys(dir);
  app = await buildTestApp({ DATA_DIR: join(dir, 'data'), JWKS_FILE: keys.file });
  token = await keys.sign();
  const flat = customerCsv(400, POOL, 5);
  const lines = flat.trim().split('\n');
  const hot = lines[1]!;
  const csv = [...lines, ...Array.from({ length: 300 }, () => hot)].join('\n') + '\n';
  tickets = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').slice(3, 10).map(Number));
  session = await upload(csv);
  // wait for the analysis (expect.poll belongs to tests)
  for (let i = 0; ; i++) {
    const status = (
      await app.inject({
        url: `/api/power7/processing-status/?session=${session}`,
        headers: auth(),
      })
    ).json().data.status;
    if (status === 'done') break;
    if (status !== 'queued' && status !== 'running') throw new Error(`session ${status}`);
    if (i > 2400) throw new Error('session did not finish');
    await new Promise((r) => setTimeout(r, 25));
  }
  totals = [];
  for (const draw of draws()) {
    let total = 0;
    for (const ticket of tickets) {
      const m = ticket.filter((n) => draw.includes(n)).length;
      if (m >= 3) total += PAYOUTS[m - 3]!;
    }
    totals.push(total);
  }
  totals.sort((a, b) => a - b);
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (dir) await cleanup(dir);
});

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
    const stranger = await keys.sign({ sub: 'another-user' });
    const res = await insight({ session, budgets: [1] }, { authorization: `Bearer ${stranger}` });
    expect(res.statusCode).toBe(404);
  });
});
