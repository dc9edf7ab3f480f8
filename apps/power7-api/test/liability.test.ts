import { beforeAll, describe, expect, it } from 'vitest';
import { customerCsv, DEFAULT_FIELDS, everyDraw } from './helper';
import { useOwnApp } from './own-app';

/**
 * The liability limit through the API on a heavy-tailed file (one combination bought 40 times, spread
 * through the file), checked against a ticket-by-ticket check over every draw of a small pool.
 */
const POOL = 12;
const PAYOUTS = [5, 50, 2_000, 50_000, 1_000_000];

// every run answered in the request, as before runs became jobs (a busy machine may pass 1 s)
const own = useOwnApp({ LIMIT_WAIT_MS: '60000' });
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

/**
 * A limit run that does not end within LIMIT_WAIT_MS (0 here) is a job of the session: 202 with its
 * address and progress, the address answered 202 while it runs and 200 with the same answer as a
 * run in the request once done; a second ask joins it; another company's or user's ask is a 404.
 */
describe('a limit run as a job', () => {
  const job = useOwnApp({ LIMIT_WAIT_MS: '0' });
  const JOB_POOL = 20;
  const JOB_TICKETS = 20_000;
  const JOB_LIMIT = 2_000_000;
  const fields = {
    ...DEFAULT_FIELDS,
    pool_size: String(JOB_POOL),
    budget: '1000000',
    ...Object.fromEntries(PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
  };
  const csv = customerCsv(JOB_TICKETS, JOB_POOL, 7);
  let direct: string;
  let queued: string;

  beforeAll(async () => {
    [direct, queued] = await Promise.all([own.upload(csv, fields), job.upload(csv, fields)]);
    expect((await own.finished(direct)).status).toBe('done');
    expect((await job.finished(queued)).status).toBe('done');
  }, 120_000);

  const ask = (method: 'GET' | 'POST', url: string, headers = job.auth()) =>
    job.app.inject({
      method,
      url,
      headers,
      ...(method === 'POST' ? { payload: { limit: JOB_LIMIT } } : {}),
    });

  it('answers 202 with where to ask and how far it is, then the answer of a run in the request', async () => {
    const inRequest = await own.app.inject({
      method: 'POST',
      url: `/api/power7/sessions/${direct}/limit/`,
      headers: own.auth(),
      payload: { limit: JOB_LIMIT },
    });
    expect(inRequest.statusCode, inRequest.body).toBe(200);
    expect(inRequest.json().data.refused).toBeGreaterThan(0);

    const path = `/api/power7/sessions/${queued}/limit/`;
    const first = await ask('POST', path);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toMatchObject({ success: true, code: 'ACCEPTED', status: 202 });
    const { resultUrl, progress } = first.json().data;
    expect(resultUrl).toBe(`${path}?limit=${JOB_LIMIT}`);
    expect(progress).toEqual({ done: expect.any(Number), total: JOB_TICKETS });
    // a second ask joins the run under way
    const second = await ask('POST', path);
    expect([200, 202]).toContain(second.statusCode);
    if (second.statusCode === 202) expect(second.json().data.resultUrl).toBe(resultUrl);
    const { running, done } = job.app.power7.sessions.limits.stats();
    expect(running + done).toBe(1);

    // polled until done: the tickets decided only grow, and the answer is the one in the request
    let last = progress.done as number;
    let res = await ask('GET', resultUrl);
    while (res.statusCode === 202) {
      const seen = res.json().data.progress;
      expect(seen.total).toBe(JOB_TICKETS);
      expect(seen.done).toBeGreaterThanOrEqual(last);
      expect(seen.done).toBeLessThanOrEqual(JOB_TICKETS);
      last = seen.done;
      await new Promise((resolve) => setImmediate(resolve));
      res = await ask('GET', resultUrl);
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(inRequest.json().data);
    // done: the POST answers it at once, and the refused rows come from the same run
    const again = await ask('POST', path);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(inRequest.json().data);
    expect(job.app.power7.sessions.limits.stats()).toMatchObject({ running: 0, done: 1 });
  });

  it('answers 202 to the ask that starts it even when the session already ran the limit for its refused rows', async () => {
    // the page asks the refused rows, the cap and the limit at once; the first two run the limit in
    // the session itself, and with LIMIT_WAIT_MS=0 the limit's own ask must still answer as a job
    const limit = JOB_LIMIT * 2;
    const rows = await job.app.inject({
      method: 'GET',
      url: `/api/power7/sessions/${queued}/limit/refused.csv?limit=${limit}`,
      headers: job.auth(),
    });
    expect(rows.statusCode, rows.body).toBe(200);
    const first = await job.app.inject({
      method: 'POST',
      url: `/api/power7/sessions/${queued}/limit/`,
      headers: job.auth(),
      payload: { limit },
    });
    expect(first.statusCode, first.body).toBe(202);
    const { resultUrl } = first.json().data;
    const answered = await ask('GET', resultUrl);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().data.limit).toBe(limit);
  });

  it('answers another company’s or user’s ask for the run, and an unknown session, with 404', async () => {
    const resultUrl = `/api/power7/sessions/${queued}/limit/?limit=${JOB_LIMIT}`;
    for (const claims of [{ cid: 'company-b' }, { sub: 'another-user' }]) {
      const token = await job.keys.sign(claims);
      const res = await ask('GET', resultUrl, { authorization: `Bearer ${token}` });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().data).toBeNull();
    }
    const unknown = await ask('GET', `/api/power7/sessions/no-such-session/limit/?limit=5`);
    expect(unknown.statusCode).toBe(404);
    const bad = await ask('GET', `/api/power7/sessions/${queued}/limit/?limit=lots`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain('must be an amount');
  });
});
