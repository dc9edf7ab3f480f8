import { beforeAll, describe, expect, it } from 'vitest';
import { customerCsv, DEFAULT_FIELDS, everyDraw } from './helper';
import { useOwnApp } from './own-app';

/**
 * The liability limit through the API on a heavy-tailed file (one combination bought 40 times, spread
 * through the file), checked against a ticket-by-ticket check over every draw of a small pool.
 */
const POOL = 12;
const PAYOUTS = [5, 50, 2_000, 50_000, 1_000_000];

const own = useOwnApp();
let session: string;
let tickets: { numbers: number[]; line: number; id: string }[];
const draws = [...everyDraw(POOL)];

const pay = (t: number[], d: number[]) => {
  const m = t.filter((n) => d.includes(n)).length;
  return m >= 3 ? PAYOUTS[m - 3]! : 0;
};

/** Ticket by ticket in file order: refused when some draw would pass the limit. */
function sell(limit: number) {
  const totals = draws.map(() => 0);
  const refused: { line: number; id: string; draw: string; total: number }[] = [];
  for (const t of tickets) {
    let worst = -1;
    let worstTotal = -1;
    draws.forEach((d, i) => {
      const total = totals[i]! + pay(t.numbers, d);
      if (total > limit && total > worstTotal) {
        worst = i;
        worstTotal = total;
      }
    });
    if (worst >= 0)
      refused.push({ line: t.line, id: t.id, draw: draws[worst]!.join('-'), total: worstTotal });
    else draws.forEach((d, i) => (totals[i] = totals[i]! + pay(t.numbers, d)));
  }
  return { refused, worstAfter: Math.max(...totals) };
}

const post = (path: string, payload: object, headers = own.auth()) =>
  own.app.inject({
    method: 'POST',
    url: `/api/power7/sessions/${session}/${path}`,
    headers,
    payload,
  });

beforeAll(async () => {
  const lines = customerCsv(250, POOL, 11).trim().split('\n');
  const hot = lines[1]!.split(',').slice(3, 10).join(',');
  // the hot combination every sixth line from line 20 on
  for (let k = 0; k < 40; k++) lines.splice(20 + k * 6, 0, `HOT${k},Hot,+49,${hot},h`);
  const csv = lines.join('\n') + '\n';
  tickets = lines.slice(1).map((line, i) => {
    const cells = line.split(',');
    return { numbers: cells.slice(3, 10).map(Number), line: i + 2, id: cells[0]! };
  });
  session = await own.upload(csv, {
    ...DEFAULT_FIELDS,
    pool_size: String(POOL),
    budget: '1000000',
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
  });
  expect((await own.finished(session)).status).toBe('done');
}, 120_000);

describe('liability limit', () => {
  it('refuses in sales order what a ticket-by-ticket check refuses, and lists those rows', async () => {
    const limit = 3_000_000;
    const expected = sell(limit);
    expect(expected.refused.length).toBeGreaterThan(10);
    const res = await post('limit/', { limit });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      limit,
      tickets: tickets.length,
      accepted: tickets.length - expected.refused.length,
      refused: expected.refused.length,
    });
    expect(data.worstAfter.totalPayout).toBe(expected.worstAfter);
    expect(data.worstBefore.totalPayout).toBeGreaterThan(limit);

    const csv = await own.app.inject({
      method: 'GET',
      url: `/api/power7/sessions/${session}/limit/refused.csv?limit=${limit}`,
      headers: own.auth(),
    });
    expect(csv.statusCode).toBe(200);
    const rows = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe(
      'customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note,line,breach_draw,would_be_total',
    );
    expect(
      rows
        .slice(1)
        .map((r) => r.split(','))
        .map((c) => [c[0], Number(c[11]), c[12], Number(c[13])]),
    ).toEqual(expected.refused.map((r) => [r.id, r.line, r.draw, r.total]));
  });

  it('finds the largest cap per combination that fits', async () => {
    const limit = 3_000_000;
    const res = await post('cap/', { limit });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const copies = new Map<string, number>();
    for (const t of tickets) copies.set(t.numbers.join(), (copies.get(t.numbers.join()) ?? 0) + 1);
    expect(data.maxCopies).toBe(Math.max(...copies.values()));
    const worstWith = (k: number) => {
      const seen = new Map<string, number>();
      const kept = tickets.filter((t) => {
        const n = seen.get(t.numbers.join()) ?? 0;
        seen.set(t.numbers.join(), n + 1);
        return n < k;
      });
      return Math.max(...draws.map((d) => kept.reduce((s, t) => s + pay(t.numbers, d), 0)));
    };
    expect(worstWith(data.cap)).toBeLessThanOrEqual(limit);
    expect(worstWith(data.cap + 1)).toBeGreaterThan(limit);
    expect(data.worstAtCap.totalPayout).toBe(worstWith(data.cap));
  });

  it('makes a session of the accepted tickets: the book as sold fits the limit', async () => {
    const limit = 3_000_000;
    const expected = sell(limit);
    for (const mode of ['sales-order', 'cap'] as const) {
      const res = await post('limit/apply/', { limit, mode });
      expect(res.statusCode, res.body).toBe(202);
      const applied = res.json().data;
      expect(applied.sourceSessionId).toBe(session);
      expect(applied.name).toContain(mode === 'cap' ? 'cap per combination' : 'sales order');
      const done = await own.finished(applied._id);
      expect(done.status).toBe('done');
      const insight = await own.app.inject({
        method: 'POST',
        url: '/api/insight/',
        headers: own.auth(),
        payload: { session: applied._id },
      });
      const { max } = insight.json().data;
      expect(max).toBeLessThanOrEqual(limit);
      if (mode === 'sales-order') {
        expect(done.counts).toMatchObject({ accepted: tickets.length - expected.refused.length });
        expect(max).toBe(expected.worstAfter);
        // its winners come from the original rows
        const worst = insight.json().data.worst.combo;
        const rows = await own.app.inject({
          method: 'GET',
          url: `/api/download-all/${worst}/?session=${applied._id}`,
          headers: own.auth(),
        });
        expect(rows.statusCode).toBe(200);
        const refusedIds = new Set(expected.refused.map((r) => r.id));
        const ids = rows.body
          .trim()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]);
        expect(ids.length).toBeGreaterThan(0);
        expect(ids.filter((id) => refusedIds.has(id!))).toEqual([]);
      }
    }
  });

  it('refuses a limit that is not an amount, in words, and another user’s session with 404', async () => {
    for (const [limit, words] of [
      [-1, 'at least 0'],
      [1.234, 'two decimals'],
      ['lots', 'must be an amount'],
    ] as const) {
      const res = await post('limit/', { limit });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().errors)).toContain(words);
    }
    const stranger = await own.keys.sign({ sub: 'another-user' });
    const res = await post('limit/', { limit: 5 }, { authorization: `Bearer ${stranger}` });
    expect(res.statusCode).toBe(404);
  });
});
