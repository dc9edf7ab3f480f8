import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  endedSignInsUrl,
  engineCliAnalyze,
  makeKeys,
  tempDir,
} from './helper';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { COMPILED, withEmptyDatabases } from './product-process';

// The real server as a child process: a kill -9 during a job must not lose it.
const appDir = resolve(import.meta.dirname, '..');
const POOL = 30;

let dir: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let child: ChildProcess | null = null;
// A port the system hands out, kept for the restart. (A random one from 20000–40000 once met an
// outgoing connection's port in Linux's ephemeral range, 32768+, and the server could not listen.)
let port: number;
let base: string;

async function start() {
  await withEmptyDatabases(join(dir, 'data'), ['power7-db']);
  const proc = spawn(process.execPath, [COMPILED.power7], {
    cwd: appDir,
    env: {
      ...process.env,
      POWER7_PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      JWKS_FILE: keys.file,
      JWKS_URL: await endedSignInsUrl(),
      LOG_LEVEL: 'silent',
      WORKER_THREADS: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk) => (stderr += chunk));
  child = proc;
  for (let i = 0; i < 1200; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${base}/api/live/`)).ok) return proc;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not start');
}

beforeAll(async () => {
  dir = await tempDir('p7-restart-');
  keys = await makeKeys(dir);
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) await cleanup(dir);
});

it('re-runs a job cut off by kill -9 after the restart, with the same results as the engine CLI', async () => {
  const token = await keys.sign();
  const headers = { authorization: `Bearer ${token}` };
  const csv = customerCsv(60_000, POOL, 5);
  const file = join(dir, 'big.csv');
  await writeFile(file, csv);
  const fields = { ...DEFAULT_FIELDS, budget: '30000', pool_size: String(POOL) };

  const first = await start();
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  form.append('customer_file', new Blob([await readFile(file)]), 'big.csv');
  const res = await fetch(`${base}/api/upload/`, { method: 'POST', body: form, headers });
  expect(res.status).toBe(202);
  const id = ((await res.json()) as { data: { _id: string } }).data._id;

  // wait until the job runs, then kill the process without warning
  let state = { status: '', phase: '' };
  for (let i = 0; i < 400 && state.status !== 'running'; i++) {
    const s = await fetch(`${base}/api/power7/processing-status/?session=${id}`, { headers });
    state = ((await s.json()) as { data: typeof state }).data;
    if (state.status === 'done') break;
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(state.status).toBe('running');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  // the reference is made while the service restarts and runs the job again (compared at the end)
  const reference = engineCliAnalyze(file, 30000, POOL);
  reference.catch(() => undefined);
  // what a kill during the results' write leaves (the write itself is too short to hit reliably)
  const sessionDir = join(dir, 'data', 'power7', id);
  await writeFile(join(sessionDir, 'qualifying.bin.tmp-999999-1'), Buffer.alloc(1 << 20));
  await writeFile(join(sessionDir, 'analysis.json.tmp-999999-2'), '{');

  await start();
  interface Status {
    status: string;
    counts: { drawsQualified: number; accepted: number };
  }
  let status: Status | null = null;
  // a time bound, not a count of polls: the reference scan shares the cores with the re-run
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const s = await fetch(`${base}/api/power7/processing-status/?session=${id}`, { headers });
    status = ((await s.json()) as { data: Status }).data;
    if (status && status.status !== 'queued' && status.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(status).toMatchObject({ status: 'done', counts: { accepted: 60_000 } });
  expect((await readdir(sessionDir)).filter((name) => name.includes('.tmp'))).toEqual([]);

  const cli = await reference;
  const filter = await fetch(`${base}/api/filter/`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ session: id, pageSize: 20 }),
  });
  const data = (
    (await filter.json()) as {
      data: { qualified: number; items: { combo: string; totalPayout: number }[] };
    }
  ).data;
  expect(status!.counts.drawsQualified).toBe(cli.qualified);
  expect(data.qualified).toBe(cli.qualified);
  expect(data.items.map((d) => [d.combo, d.totalPayout])).toEqual(
    cli.top.map((d) => [d.combo, d.totalPayout]),
  );
  const stats = await fetch(`${base}/api/status/`);
  expect(((await stats.json()) as { data: { jobs: { done: number } } }).data.jobs.done).toBe(1);
  // the server stays up for the next test: one start fewer
}, 180_000);

it('removes at start the folder of an upload cut off by kill -9 before its session was recorded', async () => {
  const token = await keys.sign();
  // the server the test before restarted, or a new one when this test runs alone
  const proc = child && child.exitCode === null ? child : await start();
  const root = join(dir, 'data', 'power7');
  const before = new Set(await readdir(root));
  // an upload whose body never ends: its first part is on disk when the process dies
  const boundary = 'p7restartboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="customer_file"; filename="big.csv"\r\n\r\n` +
      customerCsv(5_000, POOL, 9),
  );
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
  });
  const upload = fetch(`${base}/api/upload/`, {
    method: 'POST',
    body,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    duplex: 'half',
  } as RequestInit).catch(() => null);
  let partial = '';
  for (let i = 0; i < 1200 && !partial; i++) {
    for (const name of await readdir(root)) {
      if (before.has(name)) continue;
      const size = await stat(join(root, name, 'upload.dat')).then(
        (s) => s.size,
        () => 0,
      );
      if (size > 0) partial = name;
    }
    if (!partial) await new Promise((r) => setTimeout(r, 25));
  }
  expect(partial).not.toBe('');
  proc.kill('SIGKILL');
  await new Promise((r) => proc.once('exit', r));
  await upload;
  expect(await readdir(root)).toContain(partial);

  await start();
  expect(await readdir(root)).not.toContain(partial);
  child!.kill('SIGTERM');
  await new Promise((r) => child!.once('exit', r));
}, 120_000);
