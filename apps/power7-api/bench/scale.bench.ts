/**
 * Scale-out benchmark (issue #18; a script that prints a table, not a test): `npm run bench:scale`.
 *
 * Twenty analyses of P=35 / 100,000-ticket files are uploaded at once, in one run on this machine:
 * - embedded: one Power 7 process (no Redis; PGlite; its own queue, JOB_CONCURRENCY=1);
 * - BullMQ with 1 and with 2 worker processes (compiled `dist/server.mjs`, ROLE=worker, 2 scan
 *   threads each) behind an API process (ROLE=api), on a real PostgreSQL and redis-server.
 * Printed: jobs per minute (20 over the time from the first upload to the last result), the p95 of
 * upload → done, enqueue → job start (the session's `queuedMs`) of the twenty (mostly waiting for a
 * free worker), and the queue's own overhead: enqueue → start of 10 small jobs sent one at a time.
 *
 * `npm run bench:scale -- downloads [rows]` measures winners downloads at scale instead (issue #27,
 * `./downloads.ts`): 1M tickets as the yardstick, then `rows` (default 10M), in one run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { freePort, startTestPostgres } from '@pa/server-kit/testing/postgres-server';
import { startTestRedis } from '@pa/server-kit/testing/redis-server';
import type { SessionTimings } from '../src/modules/sessions/state';
import { downloadsBench } from './downloads';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from '../test/helper';

const JOBS = 20;
const ROWS = 100_000;
const POOL = 35;
const root = resolve(import.meta.dirname, '../../..');

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface RunResult {
  what: string;
  wallMs: number;
  doneMs: number[];
  queuedMs: number[];
  /** enqueue → start of small jobs sent one after another: the queue's own cost, no waiting. */
  idleQueuedMs: number[];
}

async function run(
  what: string,
  api: FastifyInstance,
  token: string,
  csvs: string[],
  small: string[],
): Promise<RunResult> {
  const headers = { authorization: `Bearer ${token}`, 'x-csrftoken': 'form-token' };
  const uploadAndWait = async (csv: string) => {
    const at = performance.now();
    const body = multipart(
      { ...DEFAULT_FIELDS, pool_size: String(POOL) },
      { name: 'c.csv', content: csv },
    );
    const res = await api.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    if (res.statusCode !== 202) throw new Error(`upload: ${res.body}`);
    const id = res.json().data._id as string;
    for (;;) {
      const status = await api.inject({
        url: `/api/power7/processing-status/?session=${id}`,
        headers,
      });
      const data = status.json().data as {
        status: string;
        timings: SessionTimings;
        createdAt: string;
      };
      if (data.status === 'failed') throw new Error(`job failed: ${status.body}`);
      if (data.status === 'done') {
        return {
          doneMs: performance.now() - at,
          queuedMs: data.timings.queuedMs ?? NaN,
        };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const started = performance.now();
  const uploads = csvs.map((csv) => () => uploadAndWait(csv));
  const results = await Promise.all(uploads.map((upload) => upload()));
  const wallMs = performance.now() - started;
  const idleQueuedMs: number[] = [];
  for (const csv of small) idleQueuedMs.push((await uploadAndWait(csv)).queuedMs);
  return {
    what,
    wallMs,
    doneMs: results.map((r) => r.doneMs),
    queuedMs: results.map((r) => r.queuedMs),
    idleQueuedMs,
  };
}

async function waitReady(port: number) {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`worker on ${port} did not become ready`);
}

async function main() {
  if (process.argv[2] === 'downloads') {
    const dir = await tempDir('p7-downloads-');
    try {
      const keys = await makeKeys(dir);
      await downloadsBench(root, dir, keys.file, await keys.sign({}, { expiresIn: '4h' }));
    } finally {
      await cleanup(dir);
    }
    process.exit(0);
  }
  spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: root, stdio: 'inherit' });
  const dir = await tempDir('p7-scale-');
  const keys = await makeKeys(dir);
  const token = await keys.sign({}, { expiresIn: '2h' });
  const csvs = Array.from({ length: JOBS }, (_, i) => customerCsv(ROWS, POOL, 500 + i));
  const small = Array.from({ length: 10 }, (_, i) => customerCsv(1_000, POOL, 900 + i));
  const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  const children: ChildProcess[] = [];
  const apps: FastifyInstance[] = [];
  const loadBefore = loadavg()[0]!;
  const results: RunResult[] = [];
  try {
    // one user sends every upload at once: the per-user limit of jobs in flight (ADR 019) set aside
    const embedded = await buildTestApp({
      DATA_DIR: join(dir, 'embedded'),
      JWKS_FILE: keys.file,
      JOBS_PER_USER: '1000',
    });
    apps.push(embedded);
    results.push(await run('embedded (one process, its own queue)', embedded, token, csvs, small));
    await embedded.close();
    apps.pop();

    for (const workers of [1, 2]) {
      const shared = {
        DATABASE_URL: postgres.createDatabase(`scale_${workers}`),
        REDIS_URL: redis.url,
        STORAGE_DIR: join(dir, `storage-${workers}`),
        JWKS_FILE: keys.file,
        JOBS_PER_USER: '1000',
      };
      const api = await buildTestApp({
        ...shared,
        ROLE: 'api',
        DATA_DIR: join(dir, `api-${workers}`),
      });
      apps.push(api);
      const started: ChildProcess[] = [];
      for (let w = 0; w < workers; w++) {
        const port = await freePort();
        const child = spawn(process.execPath, ['apps/power7-api/dist/server.mjs'], {
          cwd: root,
          env: {
            ...process.env,
            ...shared,
            ROLE: 'worker',
            POWER7_PORT: String(port),
            DATA_DIR: join(dir, `worker-${workers}-${w}`),
            LOG_LEVEL: 'warn',
            WORKER_THREADS: '2',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        children.push(child);
        started.push(child);
        await waitReady(port);
      }
      results.push(
        await run(
          `BullMQ, ${workers} worker process${workers > 1 ? 'es' : ''}`,
          api,
          token,
          csvs,
          small,
        ),
      );
      for (const child of started) child.kill('SIGTERM');
      await Promise.all(started.map((c) => new Promise((r) => c.once('exit', r))));
      await api.close();
      apps.pop();
    }
  } finally {
    for (const child of children) child.kill('SIGKILL');
    for (const app of apps) await app.close();
    await redis.stop();
    await postgres.stop();
    await cleanup(dir);
  }

  console.log(
    `\n${JOBS} concurrent analyses, P=${POOL}, ${ROWS.toLocaleString('en')} tickets each; load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    '| setup | all 20 done | jobs / minute | p95 upload → done | waiting for a worker p50 / p95 | queue overhead p50 / p95 (idle, 10 jobs) |',
  );
  console.log('|---|---|---|---|---|---|');
  const ms = (x: number) => `${Math.round(x)} ms`;
  for (const r of results) {
    console.log(
      `| ${r.what} | ${s(r.wallMs)} | ${((JOBS / r.wallMs) * 60_000).toFixed(0)} | ${s(quantile(r.doneMs, 0.95))} | ${s(quantile(r.queuedMs, 0.5))} / ${s(quantile(r.queuedMs, 0.95))} | ${ms(quantile(r.idleQueuedMs, 0.5))} / ${ms(quantile(r.idleQueuedMs, 0.95))} |`,
    );
  }
  process.exit(0);
}

await main();
