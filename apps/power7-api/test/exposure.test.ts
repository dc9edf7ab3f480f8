import { beforeAll, describe, expect, it } from 'vitest';
import { customerCsv, DEFAULT_FIELDS, everyDraw } from './helper';
import { useOwnApp } from './own-app';

/**
 * `POST /api/power7/sessions/:id/exposure/` and its CSV on a heavy-tailed file (one combination bought
 * 40 times by one customer), checked against every draw of a small pool counted here.
 */
const POOL = 12;
const PAYOUTS = [10, 100, 1_000, 10_000, 1_000_000];

const own = useOwnApp();
let session: string;
let tickets: { numbers: number[]; customer: string }[];
let totals: number[];

const exposure = (id: string, payload: object, headers = own.auth()) =>
  own.app.inject({
    method: 'POST',
    url: `/api/power7/sessions/${id}/exposure/`,
    headers,
    payload,
  });

const pay = (numbers: number[], draw: number[]) => {
  const m = numbers.filter((n) => draw.includes(n)).length;
  return m >= 3 ? PAYOUTS[m - 3]! : 0;
};

beforeAll(async () => {
  const lines = customerCsv(300, POOL, 7).trim().split('\n');
  const hotNumbers = lines[1]!.split(',').slice(3, 10).join(',');
  const hot = Array.from({ length: 40 }, (_, i) => `HOT,Hot Buyer,+49170${i},${hotNumbers},h`);
  const csv = [...lines, ...hot].join('\n') + '\n';
  tickets = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const cells = line.split(',');
      return { numbers: cells.slice(3, 10).map(Number), customer: cells[0]! };
    });
  session = await own.upload(csv, {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    budget: '50000',
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
  });
  expect((await own.finished(session)).status).toBe('done');
  const draws = [...everyDraw(POOL)];
  totals = draws.map((d) => tickets.reduce((s, t) => s + pay(t.numbers, d), 0));
}, 120_000);

describe('exposure', () => {
  it('ranks combinations and customers by their payouts in the draws over the line', async () => {
    const over = 50_000;
    const draws = [...everyDraw(POOL)];
    const overDraws = draws.filter((_, i) => totals[i]! > over);
    const tailTotal = totals.filter((t) => t > over).reduce((s, t) => s + t, 0);
    const res = await exposure(session, { over, by: 'combination', limit: 5 });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ over, by: 'combination', draws: overDraws.length, tailTotal });
    // the hot combination's 40 copies make most of the tail
    const hotNumbers = tickets.find((t) => t.customer === 'HOT')!.numbers;
    const perCopy = overDraws.reduce((s, d) => s + pay(hotNumbers, d), 0);
    const copies = tickets.filter((t) => t.numbers.join() === hotNumbers.join()).length;
    expect(copies).toBeGreaterThanOrEqual(40);
    expect(data.items[0]).toMatchObject({
      combo: hotNumbers.join('-'),
      tickets: copies,
      tailPayout: copies * perCopy,
      share: (copies * perCopy) / tailTotal,
    });
    expect(data.items).toHaveLength(5);

    const byCustomer = (await exposure(session, { over, by: 'customer', limit: 1000 })).json().data;
    expect(byCustomer.items).toHaveLength(byCustomer.ranked);
    const hotCustomer = byCustomer.items.find(
      (i: { customerId: string }) => i.customerId === 'HOT',
    );
    expect(hotCustomer).toEqual({
      customerId: 'HOT',
      name: 'Hot Buyer',
      tickets: 40,
      tailPayout: 40 * perCopy,
      share: (40 * perCopy) / tailTotal,
    });
    const summed = byCustomer.items.reduce(
      (s: number, i: { tailPayout: number }) => s + i.tailPayout,
      0,
    );
    expect(summed).toBe(tailTotal);
  });

  it('downloads the full ranking as CSV, in the order of the answer', async () => {
    const over = 20_000;
    const answer = (await exposure(session, { over, by: 'combination', limit: 1000 })).json().data;
    const res = await own.app.inject({
      method: 'GET',
      url: `/api/power7/sessions/${session}/exposure.csv?over=${over}&by=combination`,
      headers: own.auth(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('combo,tickets,draws_won,tail_payout,share');
    expect(lines).toHaveLength(answer.ranked + 1);
    expect(lines[1]).toBe(
      [
        answer.items[0].combo,
        answer.items[0].tickets,
        answer.items[0].drawsWon,
        answer.items[0].tailPayout,
        answer.items[0].share,
      ].join(','),
    );
  });

  it('refuses bad questions in words, a file without customer ids with 409, others’ sessions with 404', async () => {
    for (const [payload, words] of [
      [{ over: -1, by: 'combination' }, 'at least 0'],
      [{ over: 5, by: 'draw' }, 'Rank by'],
      [{ over: 5, by: 'combination', limit: 0 }, 'at least 1'],
      [{ over: 5, by: 'combination', limit: 1001 }, 'at most 1000'],
    ] as const) {
      const res = await exposure(session, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().errors)).toContain(words);
    }
    const noIds = await own.upload('numbers\n1 2 3 4 5 6 7\n2 3 4 5 6 7 8\n', {
      ...DEFAULT_FIELDS,
      pool_size: '10',
    });
    expect((await own.finished(noIds)).status).toBe('done');
    const res = await exposure(noIds, { over: 0, by: 'customer' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('no customer id column');
    const stranger = await own.keys.sign({ sub: 'another-user' });
    const other = await exposure(
      session,
      { over: 0, by: 'combination' },
      { authorization: `Bearer ${stranger}` },
    );
    expect(other.statusCode).toBe(404);
  });
});
