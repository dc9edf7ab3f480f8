import { expect, it } from 'vitest';
import { customerCsv, DEFAULT_FIELDS, totalsOfEveryDraw } from './helper';
import { useOwnApp } from './own-app';

/**
 * The budget curve the web app draws: `stats.curve` counts every draw's total payout exactly in
 * finer bins than the histogram; checked against every draw of a small pool counted here.
 */
const POOL = 12;
const PAYOUTS = [1, 5, 50, 500, 5000];

const own = useOwnApp();

it('answers the exact share of draws under every curve edge', async () => {
  const csv = customerCsv(400, POOL, 3);
  const tickets = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').slice(3, 10).map(Number));
  const session = await own.upload(csv, {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
  });
  expect((await own.finished(session)).status).toBe('done');
  const res = await own.app.inject({
    method: 'POST',
    url: '/api/filter/',
    headers: own.auth(),
    payload: { session, pageSize: 1 },
  });
  const stats = res.json().data.stats;
  const totals = totalsOfEveryDraw(tickets, POOL, PAYOUTS);
  const { edges, counts } = stats.curve as { edges: number[]; counts: number[] };
  expect(counts.length).toBeGreaterThan(stats.histogram.counts.length);
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    expect(totals.filter((t) => t < edges[i]!).length).toBe(below);
    below += counts[i]!;
  }
  expect(below).toBe(totals.length);
}, 120_000);
