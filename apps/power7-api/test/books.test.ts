import { join } from 'node:path';
import { appendFile, readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOOK_LIMIT as LIMIT,
  BOOK_POOL as POOL,
  heavyTailedFile,
  NaiveBook,
  offeredTickets,
} from './book-fixture';
import { buildTestApp } from './helper';
import { useOwnApp } from './own-app';

/**
 * The live book through the API (embedded): opened on a heavy-tailed session under a limit, it
 * holds the tickets the limit accepts in sales order, and every ticket then offered is accepted or
 * refused exactly as a ticket-by-ticket check over every draw says; racing requests never pass the
 * limit together; a restart reopens the book from its log, a torn last line cut; another user's book
 * is 404; a malformed ticket changes nothing.
 */
const own = useOwnApp();
let session: string;
let fileTickets: number[][];
let hot: number[];

const api = (method: 'GET' | 'POST', url: string, payload?: object, headers = own.auth()) =>
  own.app.inject({
    method,
    url: `/api/power7/books/${url}`,
    headers,
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  const file = heavyTailedFile();
  fileTickets = file.tickets;
  hot = file.hot;
  session = await own.upload(file.csv, file.fields);
  expect((await own.finished(session)).status).toBe('done');
}, 120_000);

describe('live book', () => {
  let book: string;
  const naive = new NaiveBook();

  it('opens with the tickets the limit accepts in sales order', async () => {
    let accepted = 0;
    for (const t of fileTickets) if (naive.offer(t).accepted) accepted++;
    expect(accepted).toBeLessThan(fileTickets.length);
    const res = await api('POST', '', { session, limit: LIMIT });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    book = data._id;
    expect(data).toMatchObject({
      session,
      limit: LIMIT,
      pool: POOL,
      status: 'open',
      tickets: accepted,
      sold: 0,
      refused: 0,
      worst: naive.worst(),
      headroom: LIMIT - naive.worst().totalPayout,
    });
  });

  it('checks and sells each ticket exactly as a ticket-by-ticket check of every draw', async () => {
    // the hot combination (refused now), its neighbours and random tickets, in requests of 5
    const offers = [hot, ...offeredTickets(40, 99)];
    const dry = await api('POST', `${book}/tickets/`, {
      tickets: [{ numbers: hot }],
      dryRun: true,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data.results).toEqual([naive.offer(hot, false)]);
    expect(dry.json().data.sold).toBe(0);
    for (let k = 0; k < offers.length; k += 5) {
      const batch = offers.slice(k, k + 5);
      const res = await api('POST', `${book}/tickets/`, {
        tickets: batch.map((numbers, i) => ({ numbers, customerId: `C${k + i}` })),
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.results).toEqual(batch.map((t) => naive.offer(t)));
      expect(data.worst).toEqual(naive.worst());
    }
    const state = (await api('GET', `${book}/`)).json().data;
    expect(state.refused).toBeGreaterThan(0);
    expect(state.sold).toBeGreaterThan(0);
    const sales = (await api('GET', `${book}/sales/?pageSize=2`)).json().data;
    expect(sales.total).toBe(state.sold);
    expect(sales.items[0].seq).toBe(state.sold);
  });

  it('checks several tickets in order as a sale would, keeping none', async () => {
    const before = (await api('GET', `${book}/`)).json().data;
    const tickets = [hot, ...offeredTickets(12, 5)];
    const trial = new NaiveBook();
    trial.totals = [...naive.totals];
    const res = await api('POST', `${book}/tickets/`, {
      tickets: tickets.map((numbers) => ({ numbers })),
      dryRun: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.results).toEqual(tickets.map((t) => trial.offer(t)));
    expect(res.json().data.dryRun).toBe(true);
    expect((await api('GET', `${book}/`)).json().data).toEqual(before);
  });

  it('answers a repeated request id from the log, selling nothing twice', async () => {
    const numbers = [1, 2, 3, 4, 5, 6, 12];
    const body = { tickets: [{ numbers }], requestId: 'terminal-7:42' };
    const first = (await api('POST', `${book}/tickets/`, body)).json().data;
    const again = (await api('POST', `${book}/tickets/`, body)).json().data;
    expect(again.results).toEqual(first.results);
    expect(again.sold).toBe(first.sold);
    expect(first.results).toEqual([naive.offer(numbers)]);
  });

  it('lets exactly one of 20 racing requests sell a ticket that fits once', async () => {
    // a ticket that fits once more (its jackpot alone moves its own draw by 1,000,000)
    const once = await naive.fitOnce(async (numbers) => {
      const res = await api('POST', `${book}/tickets/`, { tickets: [{ numbers }] });
      expect(res.json().data.results[0].accepted).toBe(true);
    });
    const racing = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('POST', `${book}/tickets/`, { tickets: [{ numbers: once }] }),
      ),
    );
    expect(racing.filter((r) => r.json().data.results[0].accepted)).toHaveLength(1);
    naive.offer(once);
    const after = (await api('GET', `${book}/`)).json().data;
    expect(after.worst).toEqual(naive.worst());
    expect(after.worst.totalPayout).toBeLessThanOrEqual(LIMIT);
  });

  it('refuses a malformed ticket with 400 naming it, and adds nothing', async () => {
    const before = (await api('GET', `${book}/`)).json().data;
    const res = await api('POST', `${book}/tickets/`, {
      tickets: [{ numbers: [1, 2, 3, 4, 5, 6, 7] }, { numbers: [1, 1, 2, 3, 4, 5, 6] }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('tickets.1.numbers');
    const outside = await api('POST', `${book}/tickets/`, {
      tickets: [{ numbers: [1, 2, 3, 4, 5, 6, POOL + 1] }],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toContain(`1 to ${POOL}`);
    expect((await api('GET', `${book}/`)).json().data).toEqual(before);
  });

  it('is 404 to another user and another company', async () => {
    for (const claims of [{ sub: 'another-user' }, { cid: 'company-b' }]) {
      const token = await own.keys.sign(claims);
      const headers = { authorization: `Bearer ${token}` };
      expect((await api('GET', `${book}/`, undefined, headers)).statusCode).toBe(404);
      expect(
        (await api('POST', `${book}/tickets/`, { tickets: [{ numbers: hot }] }, headers))
          .statusCode,
      ).toBe(404);
      expect((await api('GET', '', undefined, headers)).json().data.total).toBe(0);
    }
    expect((await api('GET', '')).json().data.items.map((b: { _id: string }) => b._id)).toEqual([
      book,
    ]);
  });

  it('reopens after a restart from its log, a torn last line cut', async () => {
    const before = (await api('GET', `${book}/`)).json().data;
    const log = join(own.dir, 'data', 'power7', 'books', book, 'sales.log');
    const length = (await readFile(log)).length;
    await appendFile(log, '{"at":"2026-11-29T00:00:00Z","req":null,"tick');
    await own.app.close();
    own.app = await buildTestApp({ DATA_DIR: join(own.dir, 'data'), JWKS_FILE: own.keys.file });
    expect((await api('GET', `${book}/`)).json().data).toEqual(before);
    expect((await readFile(log)).length).toBe(length);
    // and it still sells exactly
    const next = [2, 4, 6, 8, 9, 10, 11];
    expect(
      (await api('POST', `${book}/tickets/`, { tickets: [{ numbers: next }] })).json().data.results,
    ).toEqual([naive.offer(next)]);
  }, 60_000);

  it("makes a session of the book's tickets as sold", async () => {
    const state = (await api('GET', `${book}/`)).json().data;
    const res = await api('POST', `${book}/session/`);
    expect(res.statusCode, res.body).toBe(202);
    const sold = res.json().data._id as string;
    const done = await own.finished(sold);
    expect(done).toMatchObject({ status: 'done', counts: { accepted: state.tickets } });
    // every draw within the limit with all of them: the limit refuses none
    const limit = await own.app.inject({
      method: 'POST',
      url: `/api/power7/sessions/${sold}/limit/`,
      headers: own.auth(),
      payload: { limit: LIMIT },
    });
    expect(limit.json().data).toMatchObject({
      refused: 0,
      tickets: state.tickets,
      worstBefore: naive.worst(),
    });
    // a sale's row carries its customer id into the session's files: its own draw's 7-match winner
    const sales = (await api('GET', `${book}/sales/?pageSize=100`)).json().data.items as {
      numbers: number[];
      customerId?: string;
    }[];
    const sale = sales.find((x) => x.customerId)!;
    const winners = await own.app.inject({
      url: `/api/download/${sale.numbers.join('-')}/7/?session=${sold}`,
      headers: own.auth(),
    });
    expect(winners.statusCode).toBe(200);
    expect(winners.body).toContain(`${sale.customerId},`);
  }, 60_000);

  it('closes to sales and stays readable', async () => {
    const closed = await api('POST', `${book}/close/`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.status).toBe('closed');
    const sale = await api('POST', `${book}/tickets/`, { tickets: [{ numbers: hot }] });
    expect(sale.statusCode).toBe(409);
    expect((await api('GET', `${book}/`)).json().data.status).toBe('closed');
  });
});
