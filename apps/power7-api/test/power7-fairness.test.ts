// One user's jobs in flight are limited (JOBS_PER_USER: 429 with Retry-After past it), and companies
// take turns in the queue: at JOB_CONCURRENCY=1, company B's one job runs second, not behind all of
// company A's, in this process's own queue and in the queue shared through Redis (ADR 019).
//
// The jobs are queued by a process that runs none (ROLE=api with REDIS_URL), so that all of them wait
// before the first one runs; then a process that runs jobs is started on the same data: the embedded
// queue takes them over at its start (jobs cut off by a stop are queued again, oldest first), the
// BullMQ worker finds them in Redis.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestRedis, type TestRedis } from '@pa/server-kit/testing/redis-server';
import { power7Sessions } from '../src/db/schema';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from './helper';

let dir: string;
let redis: TestRedis;
let keys: Awaited<ReturnType<typeof makeKeys>>;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  dir = await tempDir('p7-fairness-');
  [keys, redis] = await Promise.all([makeKeys(dir), startTestRedis()]);
}, 60_000);

afterAll(async () => {
  for (const app of apps) await app.close().catch(() => {});
  await redis?.stop();
  if (dir) await cleanup(dir);
});

async function build(env: Record<string, string>) {
  const app = await buildTestApp({ JWKS_FILE: keys.file, JOB_CONCURRENCY: '1', ...env });
  apps.push(app);
  return app;
}

async function upload(app: FastifyInstance, user: string, company: string, seed: number) {
  const token = await keys.sign({ sub: user, cid: company });
  const body = multipart(
    { ...DEFAULT_FIELDS, pool_size: '12' },
    { name: `${user}-${seed}.csv`, content: customerCsv(200, 12, seed) },
  );
  return app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
}

/**
 * Queues, in a process that runs no job, four jobs of company A (two users, two each) and then one
 * of company B; the session ids in the order they were queued.
 */
async function queueTwoCompanies(dataDir: string, queuePrefix: string) {
  const api = await build({
    DATA_DIR: dataDir,
    REDIS_URL: `${redis.url}/${queuePrefix}`,
    ROLE: 'api',
  });
  const names: Record<string, string> = {};
  let seed = 1;
  for (const [user, company, name] of [
    ['a-1', 'company-a', 'A1'],
    ['a-1', 'company-a', 'A2'],
    ['a-2', 'company-a', 'A3'],
    ['a-2', 'company-a', 'A4'],
    ['b-1', 'company-b', 'B1'],
  ] as const) {
    const res = await upload(api, user, company, seed++);
    expect(res.statusCode, res.body).toBe(202);
    names[res.json().data._id as string] = name;
  }
  await api.close();
  return names;
}

/** The sessions' names in the order their jobs started, once all are done. */
async function runOrder(app: FastifyInstance, names: Record<string, string>) {
  const { db } = app.power7.database;
  const rows = await vi.waitFor(
    async () => {
      const all = await db.select().from(power7Sessions);
      expect(all.map((row) => row.status)).toEqual(all.map(() => 'done'));
      return all;
    },
    { timeout: 90_000, interval: 100 },
  );
  return rows
    .sort((x, y) => x.startedAt!.getTime() - y.startedAt!.getTime())
    .map((row) => names[row.id]);
}

describe('jobs in flight per user', () => {
  it('past JOBS_PER_USER (default 2) queued or running, an upload answers 429 with Retry-After and keeps nothing', async () => {
    const dataDir = join(dir, 'limit');
    const api = await build({ DATA_DIR: dataDir, REDIS_URL: `${redis.url}/1`, ROLE: 'api' });
    for (const seed of [1, 2]) {
      const res = await upload(api, 'busy', 'company-a', seed);
      expect(res.statusCode, res.body).toBe(202);
    }
    const before = await readdir(join(dataDir, 'power7'));
    const third = await upload(api, 'busy', 'company-a', 3);
    expect(third.statusCode, third.body).toBe(429);
    expect(third.headers['retry-after']).toBe('30');
    expect(third.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', status: 429 });
    expect(third.json().message).toMatch(/already have 2 analyses queued or running/);
    expect(await readdir(join(dataDir, 'power7'))).toEqual(before);
    // a rerun counts the same
    const token = await keys.sign({ sub: 'busy', cid: 'company-a' });
    const rerun = await api.inject({
      method: 'POST',
      url: `/api/power7/sessions/${before[0]}/rerun/`,
      headers: { authorization: `Bearer ${token}` },
      payload: { ...DEFAULT_FIELDS, pool_size: '12' },
    });
    expect(rerun.statusCode, rerun.body).toBe(429);
    expect(rerun.headers['retry-after']).toBe('30');
    // another user of the same company has a limit of their own
    const other = await upload(api, 'calm', 'company-a', 4);
    expect(other.statusCode, other.body).toBe(202);
    await api.close();
  }, 120_000);
});

describe('companies take turns at JOB_CONCURRENCY=1', () => {
  it("in this process's own queue: company B's one job runs second, between company A's", async () => {
    const dataDir = join(dir, 'embedded');
    const names = await queueTwoCompanies(dataDir, '2');
    const worker = await build({ DATA_DIR: dataDir });
    expect(await runOrder(worker, names)).toEqual(['A1', 'B1', 'A2', 'A3', 'A4']);
  }, 180_000);

  it("in the queue shared through Redis (BullMQ): company B's one job runs second", async () => {
    const dataDir = join(dir, 'bullmq');
    const names = await queueTwoCompanies(dataDir, '3');
    const worker = await build({ DATA_DIR: dataDir, REDIS_URL: `${redis.url}/3` });
    expect(await runOrder(worker, names)).toEqual(['A1', 'B1', 'A2', 'A3', 'A4']);
  }, 180_000);
});
