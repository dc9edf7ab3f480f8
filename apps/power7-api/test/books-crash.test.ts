import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { BOOK_LIMIT, heavyTailedFile, NaiveBook, offeredTickets } from './book-fixture';
import { cleanup, makeKeys, tempDir } from './helper';
import { startPower7Child, uploadAndWait, type Power7Child } from './power7-child';
import { withEmptyDatabases } from './product-process';

/**
 * kill -9 of the real service while sales are in flight (issue #41 part 4): every sale answered as
 * accepted is in the book after the restart, once; none is counted twice, even when the requests
 * without an answer are sent again with their request ids; and the book reopened from its log is
 * exactly the ticket-by-ticket book of its sales.
 */
let dir: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let token: string;
let child: Power7Child | undefined;
let port: number;

const start = async () => {
  await withEmptyDatabases(join(dir, 'data'), ['power7-db']);
  child = await startPower7Child(
    { DATA_DIR: join(dir, 'data'), JWKS_FILE: keys.file, WORKER_THREADS: '1' },
    port,
  );
  return child;
};

beforeAll(async () => {
  dir = await tempDir('p7-books-crash-');
  keys = await makeKeys(dir);
  token = await keys.sign();
  port = await freePort();
});

afterAll(async () => {
  await child?.kill();
  if (dir) await cleanup(dir);
});

it('keeps every answered sale once after kill -9, and counts no retried one twice', async () => {
  let service = await start();
  const file = heavyTailedFile();
  const session = await uploadAndWait(service, token, file.csv, file.fields);
  const opened = await service.call('POST', '/api/power7/books/', token, {
    session,
    limit: BOOK_LIMIT,
  });
  expect(opened.status).toBe(201);
  const book = opened.body.data._id as string;
  const path = `/api/power7/books/${book}/tickets/`;

  const offers = offeredTickets(60, 31);
  const bodyOf = (i: number) => ({
    tickets: [{ numbers: offers[i]!, customerId: `R${i}` }],
    requestId: `terminal-1:${i}`,
  });
  const answered = new Map<number, boolean>();
  const inFlight = offers.map((_, i) =>
    service.call('POST', path, token, bodyOf(i)).then(
      (res) => {
        if (res.status === 200) answered.set(i, res.body.data.results[0].accepted);
      },
      () => undefined,
    ),
  );
  // killed once some answers are back, the rest still in flight
  for (const until = Date.now() + 60_000; answered.size < 10 && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 2));
  await service.kill();
  await Promise.all(inFlight);
  expect(answered.size).toBeGreaterThanOrEqual(10);
  expect(answered.size).toBeLessThan(offers.length);

  service = await start();
  const soldIds = async () =>
    (
      await service.call('GET', `/api/power7/books/${book}/sales/?pageSize=100`, token)
    ).body.data.items.map((s: { customerId: string }) => s.customerId) as string[];
  const afterRestart = await soldIds();
  for (const [i, accepted] of answered) {
    expect(afterRestart.filter((id) => id === `R${i}`)).toHaveLength(accepted ? 1 : 0);
  }
  // every request sent again with its id: answered ones get their first answer, nothing twice
  for (let i = 0; i < offers.length; i++) {
    const res = await service.call('POST', path, token, bodyOf(i));
    expect(res.status).toBe(200);
    if (answered.has(i)) expect(res.body.data.results[0].accepted).toBe(answered.get(i));
  }
  const ids = await soldIds();
  expect(new Set(ids).size).toBe(ids.length);

  // the reopened book is the ticket-by-ticket book of the file's accepted tickets and its sales
  const naive = new NaiveBook();
  for (const t of file.tickets) naive.offer(t);
  for (const id of [...ids].reverse())
    expect(naive.offer(offers[Number(id.slice(1))]!)).toEqual({ accepted: true });
  const state = (await service.call('GET', `/api/power7/books/${book}/`, token)).body.data;
  expect(state.sold).toBe(ids.length);
  expect(state.worst).toEqual(naive.worst());
}, 240_000);
