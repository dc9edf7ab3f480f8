/**
 * Winners downloads at scale (issue #27), `npm run bench:scale -- downloads [rows=10000000]`: the
 * compiled service (as `npm start` runs it) with one finished P=35 session of 1M tickets, the yardstick,
 * and one of `rows`, in the same run. Per size it prints:
 * - 20 clients downloading one draw's 6-match winners for 8 s (goal at 10M: p95 ≤ 1 s);
 * - 20 clients downloading 6-match winners of 20 different draws for 8 s (no shared walk);
 * - all winners of one draw, one client (goal ≥ 50 MB/s; median of 3), and the slowest /api/live/
 *   answer while those downloads ran.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FIELDS, endedSignInsUrl, randomTicket, rng } from '../test/helper';

const POOL = 35;
const CLIENTS = 20;
const SECONDS = 8;

export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
export const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};

export async function writeCsv(file: string, rows: number, seed: number) {
  const out = createWriteStream(file);
  const next = rng(seed);
  out.write('customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `C${i + 1},Customer ${i + 1},+1555${1_000_000 + i},${randomTicket(POOL, next).join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

interface Load {
  done: number;
  p50: number;
  p95: number;
  max: number;
  rps: number;
  errors: number;
}

/** CLIENTS loops fetching `urlOf(client, n)` for SECONDS, each body read whole. */
async function hammer(
  urlOf: (client: number, n: number) => string,
  headers: Record<string, string>,
) {
  const until = performance.now() + SECONDS * 1000;
  const times: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; performance.now() < until; n++) {
        const started = performance.now();
        const res = await fetch(urlOf(client, n), { headers });
        await res.arrayBuffer();
        if (!res.ok) errors++;
        times.push(performance.now() - started);
      }
    }),
  );
  const ms = (x: number) => Math.round(x);
  return {
    done: times.length,
    p50: ms(quantile(times, 0.5)),
    p95: ms(quantile(times, 0.95)),
    max: ms(Math.max(...times)),
    rps: Math.round((times.length / SECONDS) * 10) / 10,
    errors,
  } satisfies Load;
}

export interface Server {
  base: string;
  stop: () => Promise<void>;
}

/** The compiled service of the tree at `root` on a data folder (its sessions kept between starts). */
export async function startServer(
  root: string,
  dataDir: string,
  jwksFile: string,
): Promise<Server> {
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const profile = process.env.BENCH_PROFILE
    ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const server: ChildProcess = spawn(
    process.execPath,
    [...profile, 'apps/power7-api/dist/server.mjs'],
    {
      cwd: root,
      env: {
        ...process.env,
        POWER7_PORT: String(port),
        DATA_DIR: dataDir,
        JWKS_FILE: jwksFile,
        JWKS_URL: await endedSignInsUrl(),
        LOG_LEVEL: 'warn',
        RESULT_CACHE_MB: '4096',
        UPLOAD_MAX_BYTES: String(2 ** 31 - 1),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/live/`)).ok) break;
    } catch {
      if (i > 1200) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    base,
    stop: async () => {
      server.kill('SIGTERM');
      await once(server, 'exit');
    },
  };
}

/** Uploads a session of `rows` tickets and waits for its analysis; its id and top draws. */
async function prepare(server: Server, dir: string, rows: number, token: string) {
  const { base } = server;
  const headers = { authorization: `Bearer ${token}` };
  const file = join(dir, `customers-${rows}.csv`);
  await writeCsv(file, rows, 100);
  const budget = String(Math.round((270_000 * rows) / 1_000_000));
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...DEFAULT_FIELDS, budget, pool_size: String(POOL) }))
    if (v !== undefined) form.append(k, v);
  form.append('customer_file', await openAsBlob(file), 'customers.csv');
  const up = await fetch(`${base}/api/upload/`, { method: 'POST', body: form, headers });
  if (up.status !== 202) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
  const id = ((await up.json()) as { data: { _id: string } }).data._id;
  for (;;) {
    const s = await fetch(`${base}/api/power7/processing-status/?session=${id}`, { headers });
    const { status } = ((await s.json()) as { data: { status: string } }).data;
    if (status === 'done') break;
    if (status !== 'queued' && status !== 'running') throw new Error(`session ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await rm(file);
  const top = (await (
    await fetch(`${base}/api/filter/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ session: id, pageSize: CLIENTS }),
    })
  ).json()) as { data: { items: { combo: string }[] } };
  return { id, combos: top.data.items.map((d) => d.combo) };
}

/** The three measures on a running server, for session `id` of `rows` tickets. */
async function measure(
  server: Server,
  rows: number,
  token: string,
  { id, combos }: { id: string; combos: string[] },
) {
  const { base } = server;
  const headers = { authorization: `Bearer ${token}` };
  const six = (combo: string) => `${base}/api/download/${combo}/6/?session=${id}`;
  // BENCH_ONLY=all: the all-winners download alone (for a profile of it)
  const skip = process.env.BENCH_ONLY === 'all';
  const none: Load = { done: 0, p50: NaN, p95: NaN, max: NaN, rps: 0, errors: 0 };
  const sameDraw = skip ? none : await hammer(() => six(combos[0]!), headers);
  const manyDraws = skip
    ? none
    : await hammer((client, n) => six(combos[(client + n) % combos.length]!), headers);

  // all winners of one draw, three times one after the other, /api/live/ polled meanwhile
  const all = `${base}/api/download-all/${combos[1]!}/?session=${id}`;
  const allRuns: { ms: number; bytes: number }[] = [];
  let downloading = true;
  const live: number[] = [];
  const polling = (async () => {
    while (downloading) {
      const started = performance.now();
      await (await fetch(`${base}/api/live/`)).arrayBuffer();
      live.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    const res = await fetch(all, { headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    allRuns.push({ ms: performance.now() - started, bytes });
  }
  downloading = false;
  await polling;
  const median = allRuns.map((r) => r.ms).sort((a, b) => a - b)[1]!;
  return {
    rows,
    sameDraw,
    manyDraws,
    allMs: Math.round(median),
    allMB: allRuns[0]!.bytes / 1e6,
    liveMax: Math.round(Math.max(...live)),
  };
}

/**
 * `BENCH_COMPARE=<another checkout>` measures that tree's compiled service too, on the same sessions,
 * alternating with this one (this tree, the other, this, the other) so both see the same load.
 */
export async function downloadsBench(root: string, dir: string, jwksFile: string, token: string) {
  const rows = Number(process.argv[3] ?? 10_000_000);
  const other = process.env.BENCH_COMPARE;
  const trees = other ? [root, other, root, other] : [root];
  for (const tree of new Set(trees))
    spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: tree, stdio: 'inherit' });
  const before = load();
  const results: (Awaited<ReturnType<typeof measure>> & { tree: string })[] = [];
  for (const size of new Set([1_000_000, rows])) {
    const dataDir = join(dir, `data-${size}`);
    let server = await startServer(root, dataDir, jwksFile);
    const session = await prepare(server, dir, size, token);
    for (const [i, tree] of trees.entries()) {
      if (i > 0) server = await startServer(tree, dataDir, jwksFile);
      try {
        results.push({ ...(await measure(server, size, token, session)), tree });
      } finally {
        await server.stop();
      }
    }
  }
  console.log(
    `\nWinners downloads, P=${POOL}, ${CLIENTS} clients for ${SECONDS} s; ${new Date().toISOString()}; ` +
      `load average (1/5/15 min) before ${before}, after ${load()}\n`,
  );
  const loadCell = (l: Load) =>
    `${l.done} done, ${l.rps} req/s, p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms${l.errors ? `, ${l.errors} errors` : ''}`;
  console.log(
    "| tickets | tree | one draw's 6-match winners, 20 clients (goal at 10M: p95 ≤ 1 s) | " +
      '6-match winners of 20 different draws, 20 clients | all winners of one draw, median of 3 ' +
      '(goal ≥ 50 MB/s) | slowest /api/live/ meanwhile |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    const mbs = ((r.allMB * 1000) / r.allMs).toFixed(0);
    console.log(
      `| ${r.rows.toLocaleString('en')} | ${r.tree} | ${loadCell(r.sameDraw)} | ${loadCell(r.manyDraws)} | ` +
        `${r.allMs} ms, ${r.allMB.toFixed(1)} MB, ${mbs} MB/s | ${r.liveMax} ms |`,
    );
  }
}
