import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@pa/server-kit/testing/postgres-server';
import { startTestRedis, type TestRedis } from '@pa/server-kit/testing/redis-server';
import { BOOK_LIMIT, heavyTailedFile, NaiveBook } from './book-fixture';
import { cleanup, makeKeys, tempDir } from './helper';
import { startPower7Child, uploadAndWait, type Power7Child } from './power7-child';

/**
 * One live book sold into through two real Power 7 processes on one storage folder (issue #41 part
 * 4): with PostgreSQL and Redis (the Redis lock) and with PostgreSQL alone (its advisory locks),
 * racing requests spread over both processes never pass the limit together and each process counts
 * the other's sales; a Redis lock left by a holder that died expires and the book sells again.
 */
let postgres: TestPostgres;
let redis: TestRedis;
let dir: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let token: string;
const children: Power7Child[] = [];

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  dir = await tempDir('p7-books-processes-');
  keys = await makeKeys(dir);
  token = await keys.sign();
}, 120_000);

afterAll(async () => {
  for (const child of children) await child.kill();
  await redis?.stop();
  await postgres?.stop();
  if (dir) await cleanup(dir);
});

describe.each([
  { kind: 'PostgreSQL and Redis', withRedis: true },
  { kind: 'PostgreSQL alone', withRedis: false },
])('a live book sold into by two processes ($kind)', ({ withRedis }) => {
  let one: Power7Child;
  let two: Power7Child;
  let book: string;
  const naive = new NaiveBook();
  let hot: number[];
  const sell = (child: Power7Child, numbers: number[], refusedAfter = 0) =>
    child.call('POST', `/api/power7/books/${book}/tickets/`, token, {
      tickets: [{ numbers }, ...Array.from({ length: refusedAfter }, () => ({ numbers: hot }))],
    });
  const state = async (child: Power7Child) =>
    (await child.call('GET', `/api/power7/books/${book}/`, token)).body.data;

  beforeAll(async () => {
    const name = withRedis ? 'redis' : 'postgres';
    const env = {
      DATABASE_URL: await postgres.createDatabase(`power7_books_${name}`),
      STORAGE_DIR: join(dir, `storage-${name}`),
      JWKS_FILE: keys.file,
      ...(withRedis ? { REDIS_URL: redis.url } : {}),
    };
    // one after the other: the first migrates the database
    one = await startPower7Child({ ...env, DATA_DIR: join(dir, `${name}-1`) });
    children.push(one);
    two = await startPower7Child({ ...env, DATA_DIR: join(dir, `${name}-2`) });
    children.push(two);
    const file = heavyTailedFile();
    hot = file.hot;
    const session = await uploadAndWait(one, token, file.csv, file.fields);
    for (const t of file.tickets) naive.offer(t);
    const opened = await two.call('POST', '/api/power7/books/', token, {
      session,
      limit: BOOK_LIMIT,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    book = opened.body.data._id;
  }, 240_000);

  it('never lets racing requests on both processes pass the limit together', async () => {
    // sold alternately through both processes up to the point where one more copy fits
    let turn = 0;
    const once = await naive.fitOnce(async (numbers) => {
      const res = await sell(turn++ % 2 ? two : one, numbers);
      expect(res.body.data.results[0].accepted).toBe(true);
    });
    // each request also offers the hot combination 300 times (refused: its draw has no room for
    // another jackpot), so that a request holds its book long enough for the others to meet it
    expect(naive.offer(hot, false).accepted).toBe(false);
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sell(i % 2 ? two : one, once, 300)),
    );
    expect(racing.map((r) => r.status)).toEqual(racing.map(() => 200));
    expect(racing.filter((r) => r.body.data.results[0].accepted)).toHaveLength(1);
    for (const r of racing) {
      expect(r.body.data.results.slice(1).every((x: { accepted: boolean }) => !x.accepted)).toBe(
        true,
      );
    }
    naive.offer(once);
    const [a, b] = [await state(one), await state(two)];
    expect(a).toEqual(b);
    expect(a.worst).toEqual(naive.worst());
    expect(a.sold).toBe(turn + 1);
    expect(a.refused).toBe(19 + 20 * 300);
  }, 120_000);

  // registered for the Redis lock only: PostgreSQL's lock goes with its holder's connection
  if (withRedis)
    it('sells again once the lock of a holder that died expires', async () => {
      const client = new Redis(redis.url);
      try {
        await client.set(`power7:book-lock:${book}`, 'dead-holder', 'PX', 1500);
        const numbers = [1, 2, 3, 4, 5, 6, 7];
        const res = await sell(two, numbers);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.results).toEqual([naive.offer(numbers)]);
        expect(await client.exists(`power7:book-lock:${book}`)).toBe(0);
      } finally {
        client.disconnect();
      }
    }, 60_000);
});
