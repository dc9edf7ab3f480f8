import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@pa/server-kit/testing/postgres-server';
import { startTestRedis, type TestRedis } from '@pa/server-kit/testing/redis-server';
import { power7Sessions } from '../src/db/schema';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  engineCliAnalyze,
  makeKeys,
  multipart,
  tempDir,
} from './helper';
import { COMPILED } from './product-process';

/**
 * Many Power 7 processes on one PostgreSQL, one Redis (BullMQ) and one storage folder (issue #18):
 * API processes that only queue, worker processes that only run jobs, any request on any process.
 * The API and worker processes of a test run in this process (each its own app, database pool and
 * Redis connections); the worker that is killed is a real child process.
 */
describe('Power 7 API and worker processes sharing PostgreSQL, Redis and storage', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let dir: string;
  let env: Record<string, string>;
  let keys: Awaited<ReturnType<typeof makeKeys>>;
  let token: string;
  const apps: FastifyInstance[] = [];
  let api1: FastifyInstance;
  let api2: FastifyInstance;
  let child: ChildProcess | null = null;

  const start = async (role: 'api' | 'worker', name: string) => {
    const app = await buildTestApp({ ...env, ROLE: role, DATA_DIR: join(dir, name) });
    apps.push(app);
    return app;
  };
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([
      startTestPostgres(),
      startTestRedis({ persistent: true }),
    ]);
    dir = await tempDir('p7-processes-');
    keys = await makeKeys(dir);
    token = await keys.sign();
    env = {
      DATABASE_URL: await postgres.createDatabase('power7_processes'),
      REDIS_URL: redis.url,
      STORAGE_DIR: join(dir, 'storage'),
      JWKS_FILE: keys.file,
      // a worker that died is found out after 3 s (30 s in production)
      JOB_LOCK_MS: '3000',
    };
    // one after the other: the first migrates the database, the second finds it done
    api1 = await start('api', 'api1');
    api2 = await start('api', 'api2');
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    for (const app of apps) await app.close();
    await redis?.stop();
    await postgres?.stop();
    if (dir) await cleanup(dir);
  });

  const DEFAULT_BUDGET = Number(DEFAULT_FIELDS.budget);
  async function upload(app: FastifyInstance, csv: string, pool: number, budget = DEFAULT_BUDGET) {
    const body = multipart(
      { ...DEFAULT_FIELDS, budget: String(budget), pool_size: String(pool) },
      { name: 'customers.csv', content: csv },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: body.payload,
      headers: { ...body.headers, ...auth(), 'x-csrftoken': 'form-token' },
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data._id as string;
  }

  const status = async (app: FastifyInstance, id: string) =>
    (
      await app.inject({ url: `/api/power7/processing-status/?session=${id}`, headers: auth() })
    ).json().data as { status: string; counts: Record<string, number> };

  /**
   * The engine CLI's answer for the same file: its 20 best-paying draws and how many qualify. A scan
   * of P=49 costs seconds of CPU, so each file is analysed once and the answer kept for the file.
   */
  const references = new Map<
    string,
    Promise<{ qualified: number; top: { combo: string; totalPayout: number }[] }>
  >();
  function engineTop(csv: string, pool: number, budget = DEFAULT_BUDGET) {
    const key = `${pool}:${budget}:${csv}`;
    if (!references.has(key)) {
      const reference = (async () => {
        const path = join(dir, `reference-${pool}-${references.size}.csv`);
        await writeFile(path, csv);
        const cli = await engineCliAnalyze(path, budget, pool);
        return {
          qualified: cli.qualified,
          top: cli.top.map((d) => ({ combo: d.combo, totalPayout: d.totalPayout })),
        };
      })();
      // a failure surfaces where the reference is awaited, not as an unhandled rejection
      reference.catch(() => undefined);
      references.set(key, reference);
    }
    return references.get(key)!;
  }

  async function apiTop(app: FastifyInstance, id: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(),
      payload: { session: id, pageSize: 20, sort: 'totalPayout:desc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.items as { combo: string; totalPayout: number }[]).map((d) => ({
      combo: d.combo,
      totalPayout: d.totalPayout,
    }));
  }

  /** Waits until the session, read through `app`, has `wanted` status (`running` is watched closely). */
  const reach = (app: FastifyInstance, id: string, wanted: 'running' | 'done') =>
    expect
      .poll(async () => (await status(app, id)).status, {
        timeout: wanted === 'running' ? 60_000 : 120_000,
        interval: wanted === 'running' ? 50 : 100,
      })
      .toBe(wanted);

  const attemptsOf = async (id: string) => {
    const [row] = await api1.power7.database.db
      .select({ attempts: power7Sessions.attempts })
      .from(power7Sessions)
      .where(eq(power7Sessions.id, id));
    return row?.attempts;
  };

  it('refuses ROLE=api or worker without the Redis queue they would share', async () => {
    await expect(buildTestApp({ DATA_DIR: join(dir, 'alone'), ROLE: 'worker' })).rejects.toThrow(
      /ROLE=api or ROLE=worker needs REDIS_URL/,
    );
  });

  it('reports Redis in the readiness check of every process', async () => {
    const ready = await api1.inject({ url: '/api/ready/' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.body).toContain('redis');
  });

  /**
   * The file of the tests that interrupt a running job: P=49 scans 85.9M draws, seconds of work for
   * 5,000 tickets, so the job is caught running. One file for the three, so its reference is made once.
   */
  const LONG_POOL = 49;
  const longCsv = customerCsv(5_000, LONG_POOL, 12);
  /**
   * Its budget: 3,920 of the 85.9M draws qualify (totals 213–1,005 here). The job still scans every
   * draw, but does not record and write 85.9M qualifying draws (~0.7 GB per run) as the default
   * budget, which every draw fits, would.
   */
  const LONG_BUDGET = 250;

  it('a worker killed mid-job: another worker runs the job to the end, once more, with the same results', async () => {
    const pool = LONG_POOL;
    const csv = longCsv;
    // the first worker is a real process, so it can be killed with -9
    child = spawn(process.execPath, [COMPILED.power7], {
      cwd: resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        ...env,
        ROLE: 'worker',
        DATA_DIR: join(dir, 'child'),
        POWER7_PORT: '0',
        LOG_LEVEL: 'warn',
        WORKER_THREADS: '2',
      },
      stdio: 'ignore',
    });
    const id = await upload(api1, csv, pool, LONG_BUDGET);
    // the reference is made while the service works (it is compared at the end)
    const reference = engineTop(csv, pool, LONG_BUDGET);
    // the only worker takes it: wait until it runs (P=49 scans 85.9M draws: seconds of work)
    await reach(api2, id, 'running');
    child.kill('SIGKILL');
    await new Promise((done) => child!.once('exit', done));
    child = null;

    await start('worker', 'worker2');
    await reach(api2, id, 'done');
    // run once by the killed worker and once to the end by the other, never at the same time
    expect(await attemptsOf(id)).toBe(2);
    expect((await status(api1, id)).counts.drawsQualified).toBe((await reference).qualified);
    expect(await apiTop(api1, id)).toEqual((await reference).top);
  }, 240_000);

  it('Redis restarted (with persistence) during a job: the job finishes, once, nothing lost', async () => {
    const pool = LONG_POOL;
    const csv = longCsv;
    const id = await upload(api1, csv, pool, LONG_BUDGET);
    await reach(api2, id, 'running');
    await redis.stop();
    await redis.start();
    await reach(api2, id, 'done');
    expect(await attemptsOf(id)).toBe(1);
    const reference = await engineTop(csv, pool, LONG_BUDGET);
    expect(await apiTop(api2, id)).toEqual(reference.top);
    // the queue took new work after the restart
    const next = await upload(api2, customerCsv(500, 20, 13), 20);
    await reach(api1, next, 'done');
  }, 240_000);

  it('a worker that stops (its app closes, as on SIGTERM) hands its running job back; another finishes it', async () => {
    const leaving = await start('worker', 'leaving');
    // both in-process workers from before are busy elsewhere or idle: the job may land on either, so
    // the one that stops is whichever runs it
    const pool = LONG_POOL;
    const csv = longCsv;
    const id = await upload(api1, csv, pool, LONG_BUDGET);
    await reach(api2, id, 'running');
    const runner = apps.find((app) => app.power7.queue.has(id));
    expect(runner).toBeDefined();
    await runner!.close();
    apps.splice(apps.indexOf(runner!), 1);
    if (runner !== leaving) await start('worker', 'replacement');
    await reach(api2, id, 'done');
    expect(await attemptsOf(id)).toBe(2);
    expect(await apiTop(api1, id)).toEqual((await engineTop(csv, pool, LONG_BUDGET)).top);
  }, 240_000);

  it('clear-all through an API process stops a job running on a worker; the worker goes on with the next', async () => {
    const pool = LONG_POOL;
    const id = await upload(api1, longCsv, pool, LONG_BUDGET);
    await reach(api2, id, 'running');
    const runner = apps.find((app) => app.power7.queue.has(id));
    expect(runner).toBeDefined();
    const cleared = await api2.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(),
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    // the worker stopped it: no longer running there, the session gone everywhere
    await expect.poll(() => runner!.power7.queue.has(id), { timeout: 30_000 }).toBe(false);
    const gone = await api1.inject({
      url: `/api/power7/processing-status/?session=${id}`,
      headers: auth(),
    });
    expect(gone.statusCode).toBe(404);
    const next = await upload(api1, customerCsv(500, 20, 16), 20);
    await reach(api2, next, 'done');
  }, 180_000);

  it('PostgreSQL stopped briefly: requests get a 503 in the envelope, then succeed, no restart', async () => {
    const [any] = (await api1.inject({ url: '/api/power7/sessions/', headers: auth() })).json().data
      .items as { _id: string }[];
    await postgres.pause();
    try {
      const down = await api1.inject({
        url: `/api/power7/processing-status/?session=${any!._id}`,
        headers: auth(),
      });
      expect(down.statusCode, down.body).toBe(503);
      expect(down.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
      const ready = await api2.inject({ url: '/api/ready/' });
      expect(ready.statusCode).toBe(503);
      expect(ready.body).toContain('database');
    } finally {
      await postgres.resume();
    }
    await expect
      .poll(
        async () =>
          (
            await api1.inject({
              url: `/api/power7/processing-status/?session=${any!._id}`,
              headers: auth(),
            })
          ).statusCode,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(200);
  }, 120_000);

  it('uploaded through one API process, read through the other: status, filter, winners, downloads', async () => {
    await start('worker', 'worker3');
    const pool = 30;
    const csv = customerCsv(3_000, pool, 5);
    const id = await upload(api1, csv, pool);
    const referenceMade = engineTop(csv, pool);
    await reach(api2, id, 'done');
    const reference = await referenceMade;
    const top = await apiTop(api2, id);
    expect(top).toEqual(reference.top);
    expect(await apiTop(api1, id)).toEqual(top);

    const combo = top[0]!.combo;
    const winners = await api2.inject({
      url: `/api/winners/${combo}/3/?session=${id}&pageSize=5`,
      headers: auth(),
    });
    expect(winners.statusCode, winners.body).toBe(200);
    const download = await api2.inject({
      url: `/api/download/${combo}/3/?session=${id}`,
      headers: auth(),
    });
    expect(download.statusCode).toBe(200);
    const rows = download.body.trim().split(/\r?\n/);
    expect(rows.length - 1).toBe(winners.json().data.total);

    // clearing through the other process removes it for both
    const cleared = await api2.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(),
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const gone = await api1.inject({
      url: `/api/power7/processing-status/?session=${id}`,
      headers: auth(),
    });
    expect(gone.statusCode).toBe(404);
  }, 180_000);
});
