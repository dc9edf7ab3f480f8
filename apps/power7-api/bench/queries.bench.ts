/**
 * Power 7 queries under concurrency (issue #42), `npm run bench:queries [-- rows ...]` (default 1M;
 * e.g. `-- 1000000 10000000`). A script that prints a table, not a test.
 *
 * The compiled service (as `npm start` runs it, `./downloads.ts`' `startServer`) with one finished P=35
 * session per size, its budget set so that about half of the draws qualify (`HALF_BUDGET_PER_M`). Per
 * size and tree, 20 clients on this machine for `SECONDS` each:
 * - fresh filters: every body new (a payout range, numbers that must / must not be drawn, winners per
 *   match type, the four sorts, pages 1..4, pages past the end now and then), so the service's
 *   256-entry answer cache never answers;
 * - winners pages: `GET /api/winners/{combo}/6/` of random draws (a walk or lookup per draw);
 * and `/api/live/` polled every 20 ms meanwhile. The yardstick: the engine's warm build + scan of the
 * same 1M file (`bench/yardstick.ts`), in the same run. The load average is printed before and after.
 *
 * `BENCH_COMPARE=<another checkout>` measures that tree's compiled service too, on the same sessions,
 * alternating (this tree, the other, this, the other), so both see the same load.
 */
import { spawnSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { engineYardstick } from '@pa/power7-engine/bench/yardstick';
import { cleanup, DEFAULT_FIELDS, makeKeys, randomTicket, rng, tempDir } from '../test/helper';
import { load, quantile, startServer, writeCsv, type Server } from './downloads';

const POOL = 35;
const CLIENTS = 20;
const SECONDS = Number(process.env.SECONDS_PER_MEASURE ?? 8);
/** Budget per 1M tickets at which about half of the P=35 draws qualify (the issue's measure). */
const HALF_BUDGET_PER_M = Number(process.env.HALF_BUDGET_PER_M ?? 266_000);
const SIZES = process.argv.slice(2).map(Number);
const root = resolve(import.meta.dirname, '../../..');

interface Measure {
  done: number;
  p50: number;
  p95: number;
  max: number;
  rps: number;
  errors: number;
  /** /api/live/ meanwhile: p95 and slowest, ms. */
  liveP95: number;
  liveMax: number;
}

/** CLIENTS loops sending `send(client, n)` for SECONDS (each body read whole), /api/live/ polled. */
async function hammer(base: string, send: (client: number, n: number) => Promise<Response>) {
  const until = performance.now() + SECONDS * 1000;
  const times: number[] = [];
  const live: number[] = [];
  let errors = 0;
  let running = true;
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/api/live/`)).arrayBuffer();
      live.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; performance.now() < until; n++) {
        const started = performance.now();
        const res = await send(client, n);
        await res.arrayBuffer();
        if (!res.ok) errors++;
        times.push(performance.now() - started);
      }
    }),
  );
  running = false;
  await polling;
  const ms = (x: number) => Math.round(x);
  return {
    done: times.length,
    p50: ms(quantile(times, 0.5)),
    p95: ms(quantile(times, 0.95)),
    max: ms(Math.max(...times)),
    rps: Math.round((times.length / SECONDS) * 10) / 10,
    errors,
    liveP95: ms(quantile(live, 0.95)),
    liveMax: ms(Math.max(...live)),
  } satisfies Measure;
}

interface Session {
  id: string;
  qualified: number;
  /** The qualifying draws' smallest and largest total payout. */
  min: number;
  max: number;
}

/** Uploads `file` (`rows` tickets) with a budget at which about half the draws qualify; waits. */
async function prepare(server: Server, file: string, rows: number, token: string) {
  const { base } = server;
  const headers = { authorization: `Bearer ${token}` };
  const budget = String(Math.round((HALF_BUDGET_PER_M * rows) / 1_000_000));
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
  const answer = (await (
    await fetch(`${base}/api/filter/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ session: id, pageSize: 1 }),
    })
  ).json()) as { data: { qualified: number; stats: { min: number; max: number } } };
  const { qualified, stats } = answer.data;
  return { id, qualified, min: stats.min, max: stats.max } satisfies Session;
}

const SORTS = [
  'totalPayout:desc',
  'totalPayout:desc',
  'totalPayout:desc',
  'totalPayout:asc',
  'winners6:desc',
  'winners5:desc',
  'combo:asc',
];

/**
 * Filter bodies an analyst could send, each one new: a payout range (always, so every body differs),
 * now and then numbers that must or must not be drawn, a winners count, another sort, a later page.
 */
function filterBodies(session: Session, seed: number) {
  const next = rng(seed);
  const seen = new Set<string>();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const number = () => 1 + Math.floor(next() * POOL);
  return (): string => {
    for (;;) {
      const span = session.max - session.min;
      const lo = Math.round(session.min + next() * span * 0.9);
      const filters: Record<string, unknown> = {
        totalPayout: next() < 0.5 ? { min: lo } : { min: lo, max: lo + Math.round(next() * span) },
      };
      if (next() < 0.35) filters.mustInclude = [number()];
      if (next() < 0.35)
        filters.mustExclude = [number(), number()].filter((n, i, a) => a.indexOf(n) === i);
      if (next() < 0.3) filters.winners = { [pick([4, 5, 6])]: { min: Math.floor(next() * 3) } };
      const pageSize = pick([20, 50]);
      // now and then a page past the end of what matches
      const page = next() < 0.05 ? 50_000 / pageSize : 1 + Math.floor(next() * 4);
      const body = JSON.stringify({
        session: session.id,
        filters,
        sort: pick(SORTS),
        page,
        pageSize,
      });
      if (seen.has(body)) continue;
      seen.add(body);
      return body;
    }
  };
}

async function measure(server: Server, session: Session, token: string, seed: number) {
  const { base } = server;
  const headers = { authorization: `Bearer ${token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  // the session opened, and what it makes at its first filter and at each sort's first use (the
  // filter index, the sort orders: once per open session), timed apart before the clock starts
  const firstUse: number[] = [];
  for (const sort of [...new Set(SORTS)]) {
    const started = performance.now();
    await fetch(`${base}/api/filter/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ session: session.id, filters: { mustInclude: [1] }, sort }),
    });
    firstUse.push(Math.round(performance.now() - started));
  }
  const bodies = filterBodies(session, seed);
  const filters = await hammer(base, () =>
    fetch(`${base}/api/filter/`, { method: 'POST', headers: json, body: bodies() }),
  );
  const draws = rng(seed + 1);
  const winners = await hammer(base, () =>
    fetch(`${base}/api/winners/${randomTicket(POOL, draws).join('-')}/6/?session=${session.id}`, {
      headers,
    }),
  );
  return { filters, winners, firstUse };
}

async function main() {
  const sizes = SIZES.length > 0 ? SIZES : [1_000_000];
  const other = process.env.BENCH_COMPARE;
  const trees = other ? [root, other, root, other] : [root];
  for (const tree of new Set(trees)) {
    const built = spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: tree });
    if (built.status !== 0) throw new Error(`build failed in ${tree}: ${String(built.stderr)}`);
  }
  const dir = await tempDir('p7-queries-');
  const results: {
    rows: number;
    tree: string;
    qualified: number;
    m: Awaited<ReturnType<typeof measure>>;
  }[] = [];
  let yardstick = NaN;
  const before = load();
  try {
    const keys = await makeKeys(dir);
    const token = await keys.sign({}, { expiresIn: '4h' });
    for (const rows of sizes) {
      const file = join(dir, `customers-${rows}.csv`);
      await writeCsv(file, rows, 100);
      if (rows === 1_000_000 || Number.isNaN(yardstick)) {
        const payouts = Object.fromEntries(
          ([3, 4, 5, 6, 7] as const).map((m) => [m, Number(DEFAULT_FIELDS[`payout_${m}`])]),
        ) as Record<3 | 4 | 5 | 6 | 7, number>;
        yardstick = await engineYardstick(file, {
          pool: POOL,
          payouts,
          budget: { type: 'fixed', budget: Math.round((HALF_BUDGET_PER_M * rows) / 1e6) },
          runs: 3,
        });
      }
      const dataDir = join(dir, `data-${rows}`);
      let server = await startServer(root, dataDir, keys.file);
      const session = await prepare(server, file, rows, token);
      await rm(file);
      for (const [i, tree] of trees.entries()) {
        if (i > 0) server = await startServer(tree, dataDir, keys.file);
        try {
          // the same bodies and draws for every tree of a size
          results.push({
            rows,
            tree,
            qualified: session.qualified,
            m: await measure(server, session, token, 7 + rows),
          });
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await cleanup(dir);
  }
  console.log(
    `\nPower 7 queries, P=${POOL}, ${CLIENTS} clients for ${SECONDS} s per measure; ${new Date().toISOString()}; ` +
      `load average (1/5/15 min) before ${before}, after ${load()}\n`,
  );
  console.log(
    `Yardstick: the engine's warm build + scan of the first file, median of 3: ${Math.round(yardstick)} ms\n`,
  );
  const cell = (l: Measure) =>
    `p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms, ${l.rps} req/s (${l.done}${l.errors ? `, ${l.errors} errors` : ''})`;
  console.log(
    '| tickets | qualifying draws | tree | fresh filters, 20 clients (goal p95 ≤ 150 ms at 1M, ≤ 500 ms at 10M) | ' +
      "/api/live/ meanwhile p95 / max | 6-match winners pages of random draws (goal p95 ≤ 50 ms) | /api/live/ meanwhile p95 / max | first filter of the open session, then each sort's first (ms) |",
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { rows, tree, qualified, m } of results) {
    console.log(
      `| ${rows.toLocaleString('en')} | ${qualified.toLocaleString('en')} | ${tree} | ${cell(m.filters)} | ` +
        `${m.filters.liveP95} / ${m.filters.liveMax} ms | ${cell(m.winners)} | ${m.winners.liveP95} / ${m.winners.liveMax} ms | ${m.firstUse.join(' · ')} |`,
    );
  }
  process.exit(0);
}

await main();
