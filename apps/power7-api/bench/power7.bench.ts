/**
 * End-to-end benchmark of the Power 7 API over loopback (a script that prints a table, not a test):
 *   [UPLOAD_MBPS=125] npx tsx apps/power7-api/bench/power7.bench.ts [rows=1000000] [pool=35]
 * The real server runs as a child process, compiled as `npm start` runs it (its own DATA_DIR, a key
 * pair made here, JWKS_FILE); this process uploads, polls and drives autocannon with 20 concurrent
 * clients. p95 is read off the HDR
 * histogram autocannon keeps (its p90 and p97.5 bracket it; the table shows the interpolation).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { copyFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { closeScanWorkers, readUpload } from '@pa/power7-engine/session-store';
import { engineYardstick, median } from '@pa/power7-engine/bench/yardstick';
import type { SessionTimings } from '../src/modules/sessions/state';
import {
  cleanup,
  DEFAULT_FIELDS,
  endedSignInsUrl,
  makeKeys,
  randomTicket,
  rng,
  tempDir,
} from '../test/helper';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const POOL = Number(process.argv[3] ?? 35);
const CACHE_MB = 512;
const CONNECTIONS = 20;
/** Status poll interval: what "results available" is detected within (and costs the server). */
const POLL_MS = 20;
/** Pace the uploads to this many MB/s, as a client on another machine (unset: as fast as it goes). */
const UPLOAD_MBPS = Number(process.env.UPLOAD_MBPS ?? 0);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const root = resolve(import.meta.dirname, '../../..');

async function writeCsv(file: string, rows: number, seed: number) {
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

/** `readUpload` of a copy of the file (what the service's read stage runs), median of 2 after one warm-up. */
async function timeRead(file: string, sessionDir: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    await rm(sessionDir, { recursive: true, force: true });
    const source = `${sessionDir}.csv`;
    await copyFile(file, source);
    const started = performance.now();
    const read = await readUpload({
      sourcePath: source,
      sessionDir,
      pool: POOL,
      moveSource: true,
      workers: 2,
    });
    if (i > 0) times.push(performance.now() - started);
    await read.saved;
  }
  await rm(sessionDir, { recursive: true, force: true });
  return median(times);
}

type Fields = Record<string, string | undefined>;

/** The upload as a browser on this machine sends it: as fast as the loopback and both cores allow. */
async function fetchUpload(
  url: string,
  headers: Record<string, string>,
  fields: Fields,
  file: string,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  form.append('customer_file', await openAsBlob(file), 'customers.csv');
  const res = await fetch(url, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.text() };
}

/**
 * The upload as a client on another machine sends it, paced to `mbps` megabytes per second (a LAN
 * link): the server then has the machine's cores to itself while the body arrives.
 */
async function pacedUpload(
  url: string,
  headers: Record<string, string>,
  fields: Fields,
  file: string,
  mbps: number,
) {
  const boundary = `----p7bench${Date.now()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="customer_file"; filename="customers.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = (await stat(file)).size;
  const req = request(url, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + size + tail.length,
    },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  const started = performance.now();
  let sent = 0;
  const send = async (chunk: Buffer) => {
    sent += chunk.length;
    const due = (sent / (mbps * 1e6)) * 1000 - (performance.now() - started);
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    if (!req.write(chunk)) await once(req, 'drain');
  };
  await send(head);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }))
    await send(chunk as Buffer);
  req.end(tail);
  return answered;
}

async function main() {
  const dir = await tempDir('p7-bench-');
  const keys = await makeKeys(dir);
  const token = await keys.sign({}, { expiresIn: '2h' });
  const headers = { authorization: `Bearer ${token}` };
  const servers: ChildProcess[] = [];
  /** Starts the compiled server in its own data folder; its base URL once it answers. */
  const startServer = async (name: string, readDuringUpload: boolean) => {
    const port = 21_000 + Math.floor(Math.random() * 10_000);
    const server = spawn(process.execPath, ['apps/power7-api/dist/server.mjs'], {
      cwd: root,
      env: {
        ...process.env,
        POWER7_PORT: String(port),
        DATA_DIR: join(dir, name),
        JWKS_FILE: keys.file,
        // a stand-in portal's (empty) list of ended sign-ins: without one, tokens are refused
        JWKS_URL: await endedSignInsUrl(),
        LOG_LEVEL: 'warn',
        RESULT_CACHE_MB: String(CACHE_MB),
        UPLOAD_MAX_BYTES: String(1024 * 1024 * 1024),
        READ_DURING_UPLOAD: String(readDuringUpload),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    servers.push(server);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/live/`)).ok) return base;
      } catch {
        if (i > 1200) throw new Error('server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  try {
    const files = [];
    for (let s = 0; s < 3; s++) {
      const file = join(dir, `customers-${s}.csv`);
      await writeCsv(file, ROWS, 100 + s);
      files.push(file);
    }
    // The total payout of a draw grows with the tickets: the budget scales with them, so the share of
    // qualifying draws stays what it is at 1M rows (~86 % at P=35).
    const budget = String(Math.round(((POOL === 35 ? 270_000 : 1_000_000) * ROWS) / 1_000_000));
    const payouts = Object.fromEntries(
      ([3, 4, 5, 6, 7] as const).map((m) => [m, Number(DEFAULT_FIELDS[`payout_${m}`])]),
    ) as Record<3 | 4 | 5 | 6 | 7, number>;
    // The same file's yardsticks, measured here before the server starts (the machine's speed drifts)
    const warm = await engineYardstick(files[0]!, {
      pool: POOL,
      payouts,
      budget: { type: 'fixed', budget: Number(budget) },
      runs: 3,
    });
    const standaloneRead = await timeRead(files[0]!, join(dir, 'standalone'));
    await closeScanWorkers();

    // what `npm start` runs: the compiled bundle
    const build = spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: root });
    if (build.status !== 0) throw new Error(`build failed: ${String(build.stderr)}`);
    // the service as it runs (the file read while it uploads), and one that reads it after the upload
    const base = await startServer('data', true);
    const afterBase = await startServer('data-read-after', false);

    const fields = { ...DEFAULT_FIELDS, budget, pool_size: String(POOL) };
    const uploadAndWait = async (file: string, to = base) => {
      const started = performance.now();
      const answer = UPLOAD_MBPS
        ? await pacedUpload(`${to}/api/upload/`, headers, fields, file, UPLOAD_MBPS)
        : await fetchUpload(`${to}/api/upload/`, headers, fields, file);
      if (answer.status !== 202)
        throw new Error(`upload answered ${answer.status}: ${answer.body}`);
      const uploaded = performance.now();
      const id = (JSON.parse(answer.body) as { data: { _id: string } }).data._id;
      for (;;) {
        const s = await fetch(`${to}/api/power7/processing-status/?session=${id}`, { headers });
        const data = ((await s.json()) as { data: { status: string; timings: SessionTimings } })
          .data;
        if (data.status === 'done') {
          return { id, uploadMs: uploaded - started, totalMs: performance.now() - started, data };
        }
        if (data.status !== 'queued' && data.status !== 'running') {
          throw new Error(`session ended ${JSON.stringify(data)}`);
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };

    const loadBefore = load();
    const first = await uploadAndWait(files[0]!);
    const filterBody = JSON.stringify({
      session: first.id,
      filters: { winners: { 3: { min: 1 } } },
      sort: 'totalPayout:desc',
      pageSize: 10,
    });
    const top = (await (
      await fetch(`${base}/api/filter/`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: filterBody,
      })
    ).json()) as { data: { qualified: number; items: { combo: string }[] } };
    const combo = top.data.items[0]!.combo;

    const run = async (name: string, options: Parameters<typeof autocannon>[0]) => {
      const r = await autocannon({ connections: CONNECTIONS, duration: 8, headers, ...options });
      const p95 = r.latency.p90 + ((r.latency.p97_5 - r.latency.p90) * 5) / 7.5;
      return {
        name,
        p50: r.latency.p50,
        p95: Math.round(p95 * 10) / 10,
        rps: Math.round(r.requests.average),
        errors: r.non2xx + r.errors,
      };
    };
    const results = [
      await run('POST /api/filter/ (winners3 ≥ 1, sorted by total, page 1)', {
        url: `${base}/api/filter/`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: filterBody,
      }),
      await run('GET /api/winners/{combo}/3/ (page of 10)', {
        url: `${base}/api/winners/${combo}/3/?session=${first.id}&pageSize=10`,
      }),
      await run('GET /api/download/{combo}/6/ (CSV)', {
        url: `${base}/api/download/${combo}/6/?session=${first.id}`,
      }),
    ];
    // one client, one request each: what a first (uncached) filter and a large download cost
    const timed = async (url: string, init?: RequestInit) => {
      const started = performance.now();
      const res = await fetch(url, { headers, ...init });
      const body = await res.text();
      return {
        ms: Math.round(performance.now() - started),
        bytes: body.length,
        status: res.status,
      };
    };
    const uncached = await timed(`${base}/api/filter/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        session: first.id,
        filters: { winners: { 4: { min: 2 } } },
        sort: 'winners5:desc',
      }),
    });
    const downloadAll = await timed(`${base}/api/download-all/${combo}/?session=${first.id}`);

    // the read after the upload, for comparison: its first session, then both kinds alternated
    const firstAfter = await uploadAndWait(files[0]!, afterBase);
    const second = await uploadAndWait(files[1]!);
    const secondAfter = await uploadAndWait(files[1]!, afterBase);
    const third = await uploadAndWait(files[2]!);
    const thirdAfter = await uploadAndWait(files[2]!, afterBase);
    for (const s of [first, second, third]) {
      await fetch(`${base}/api/filter/`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ session: s.id }),
      });
    }
    const health = (await (await fetch(`${base}/api/health/`)).json()) as {
      data: { memory: { rss: number }; cache: { sessions: number; bytes: number } };
    };

    const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
    console.log(
      `\nPower 7 API, ${ROWS.toLocaleString('en')} rows, P=${POOL}, ${CONNECTIONS} clients, ` +
        `uploads ${UPLOAD_MBPS ? `paced to ${UPLOAD_MBPS} MB/s` : 'unpaced'}; ` +
        `load average (1/5/15 min) before ${loadBefore}, after ${load()}\n`,
    );
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(
      `| upload (HTTP, ${mb((await openAsBlob(files[0]!)).size)}) | ${Math.round(first.uploadMs)} ms |`,
    );
    console.log(
      `| yardstick: the engine's warm build + scan of the same file | ${Math.round(warm)} ms |`,
    );
    console.log(
      `| upload → results available | ${Math.round(first.totalMs)} ms (${(first.totalMs / warm).toFixed(2)}× the yardstick; target ≤ 2×) |`,
    );
    console.log(
      `| the file read alone in this process (readUpload, 2 workers, median of 2 after a warm-up) | ${Math.round(standaloneRead)} ms |`,
    );
    console.log(
      `| same, 2nd / 3rd session | ${Math.round(second.totalMs)} / ${Math.round(third.totalMs)} ms |`,
    );
    const totals = (list: { totalMs: number }[]) =>
      list.map((x) => `${Math.round(x.totalMs)} (${(x.totalMs / warm).toFixed(2)}×)`).join(' / ');
    console.log(
      `| upload → results, 1st / 2nd / 3rd, ms (× yardstick): read while uploading · read after (READ_DURING_UPLOAD=false) | ` +
        `${totals([first, second, third])} · ${totals([firstAfter, secondAfter, thirdAfter])} |`,
    );
    for (const [name, s] of [
      ['1st', first],
      ['2nd', second],
      ['3rd', third],
      ['1st, read after', firstAfter],
      ['2nd, read after', secondAfter],
    ] as const) {
      const t = s.data.timings;
      // the job's total covers reading the file, the analysis and saving it
      const rest = s.totalMs - (t.uploadMs ?? 0) - (t.queuedMs ?? 0) - (t.totalMs ?? 0);
      console.log(
        `| stages (${name}): upload · read file · queued · build · scan · save · job (read + analysis + save + bookkeeping) · rest (HTTP answer, poll) | ` +
          `${t.uploadMs} · ${t.readMs} · ${t.queuedMs} · ${t.buildMs} · ${t.scanMs} · ${t.saveMs} · ${t.totalMs} · ${Math.round(rest)} ms |`,
      );
    }
    console.log(`| qualifying draws | ${top.data.qualified.toLocaleString('en')} |`);
    for (const r of results) {
      console.log(
        `| ${r.name} | p50 ${r.p50} ms, p95 ${r.p95} ms, ${r.rps} req/s, ${r.errors} errors |`,
      );
    }
    console.log(`| one uncached filter (winners4 ≥ 2, sorted by winners5) | ${uncached.ms} ms |`);
    console.log(
      `| one GET /api/download-all/{combo}/ | ${downloadAll.ms} ms, ${mb(downloadAll.bytes)} |`,
    );
    console.log(
      `| RSS after 3 finished sessions | ${mb(health.data.memory.rss)} (cache: ${health.data.cache.sessions} sessions, ${mb(health.data.cache.bytes)} of RESULT_CACHE_MB=${CACHE_MB}) |`,
    );
  } finally {
    for (const server of servers) {
      if (server.exitCode !== null) continue;
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await cleanup(dir);
  }
}

await main();
