import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
 * The budget curve the web app draws: `stats.curve` counts every draw's total payout exactly in
 * finer bins than the histogram; checked against every draw of a small pool counted here.
 */
const POOL = 12;
const PAYOUTS = [1, 5, 50, 500, 5000];

let dir: string;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  dir = await tempDir();
  const keys = await makeKeys(dir);
  app = await buildTestApp({ DATA_DIR: join(dir, 'data'), JWKS_FILE: keys.file });
  token = await keys.sign();
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (dir) await cleanup(dir);
});

function* draws(from = 1, picked: number[] = []): Generator<number[]> {
  if (picked.length === 7) {
    yield picked;
    return;
  }
  for (let n = from; n <= POOL; n++) yield* draws(n + 1, [...picked, n]);
}

it('answers the exact share of draws under every curve edge', async () => {
  const csv = customerCsv(400, POOL, 3);
  const tickets = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').slice(3, 10).map(Number));
  const fields = {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    payout_3: String(PAYOUTS[0]),
    payout_4: String(PAYOUTS[1]),
    payout_5: String(PAYOUTS[2]),
    payout_6: String(PAYOUTS[3]),
    payout_7: String(PAYOUTS[4]),
  };
  const body = multipart(fields, { name: 'c.csv', content: csv });
  const auth = { authorization: `Bearer ${token}` };
  const up = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...auth },
  });
  expect(up.statusCode, up.body).toBe(202);
  const session = up.json().data._id as string;
  await expect
    .poll(
      async () =>
        (
          await app.inject({
            url: `/api/power7/processing-status/?session=${session}`,
            headers: auth,
          })
        ).json().data.status,
      { timeout: 30_000 },
    )
    .toBe('done');
  const res = await app.inject({
    method: 'POST',
    url: '/api/filter/',
    headers: auth,
    payload: { session, pageSize: 1 },
  });
  const stats = res.json().data.stats;
  const totals: number[] = [];
  for (const draw of draws()) {
    let total = 0;
    for (const ticket of tickets) {
      const m = ticket.filter((n) => draw.includes(n)).length;
      if (m >= 3) total += PAYOUTS[m - 3]!;
    }
    totals.push(total);
  }
  const { edges, counts } = stats.curve as { edges: number[]; counts: number[] };
  expect(counts.length).toBeGreaterThan(stats.histogram.counts.length);
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    expect(totals.filter((t) => t < edges[i]!).length).toBe(below);
    below += counts[i]!;
  }
  expect(below).toBe(totals.length);
});
