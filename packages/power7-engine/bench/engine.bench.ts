/**
 * Engine benchmark: `npm run bench:engine [-- --quick] [-- --runs 3]`.
 *
 * For each case (pool, tickets, distribution) a child process generates seeded tickets, writes them as a
 * customer CSV in os.tmpdir() (cached between runs), parses it, warms the kernels with one untimed
 * analysis (which also picks the budget: the 1% quantile of the total payout, so ~1% of draws qualify),
 * then times `runs` analyses on 2 worker threads and reports medians. The timed runs reuse the
 * worker threads the warm-up started (as a service does); "first run (cold)" is the warm-up itself:
 * worker start, bundling and unoptimised kernels included.
 * Peak RSS is the child's own maximum resident set size. Also times winners-of-one-draw.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeTickets } from '../src/analysis/analyze';
import { readCustomerFile } from '../src/reading/customer-file';
import { numbersOfRank } from '../src/core/model';
import { countWinners, findWinners, ticketMasks } from '../src/analysis/winners';
import { generateTickets, mulberry32, writeCustomerCsv, type Distribution } from './generate';

interface Case {
  pool: number;
  tickets: number;
  dist: Distribution;
  runs: number;
  workers: number;
  /** '1%': about 1% of draws qualify; 'all': every draw qualifies (worst case for memory). */
  budget: '1%' | 'all';
}

interface CaseResult extends Case {
  parseMs: number;
  buildMs: number;
  scanMs: number;
  computeMs: number;
  /** CPU time of all threads during the analysis (the load-independent figure). */
  cpuMs: number;
  /** The first (warm-up) analysis: fresh worker threads started, kernels not yet optimised. */
  coldMs: number;
  /** 1-minute load average at the end of the case (2 cores). */
  load: number;
  draws: number;
  qualified: number;
  peakRssMb: number;
  winnersMs: number;
}

const payouts = { 3: 10, 4: 100, 5: 1000, 6: 10000, 7: 1000000 };
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

async function runCase(c: Case): Promise<CaseResult> {
  const file = join(tmpdir(), `power7-bench-${c.dist}-p${c.pool}-t${c.tickets}.csv`);
  if (!existsSync(file)) {
    await writeCustomerCsv(file, generateTickets(c.tickets, c.pool, c.dist, 42));
  }
  const parseTimes: number[] = [];
  let parsed = await readCustomerFile(file, { pool: c.pool, keepRejected: false });
  for (let i = 0; i < c.runs; i++) {
    const t = performance.now();
    parsed = await readCustomerFile(file, { pool: c.pool, keepRejected: false });
    parseTimes.push(performance.now() - t);
  }
  // warm-up run (untimed, warms the kernels); the budget is the 1% quantile of the total payout of
  // 400 random draws (checked ticket by ticket), so about 1% of the draws qualify
  const warm = await analyzeTickets(parsed.tickets, parsed.count, {
    pool: c.pool,
    payouts,
    budget: { type: 'fixed', budget: 0 },
    workers: c.workers,
  });
  const coldMs = warm.timings.totalMs;
  const srnd = mulberry32(7);
  const sample: number[] = [];
  for (let i = 0; i < 400; i++) {
    const w = countWinners(
      parsed.tickets,
      parsed.count,
      numbersOfRank(Math.floor(srnd() * warm.draws)),
    );
    sample.push(w[3]! * 10 + w[4]! * 100 + w[5]! * 1000 + w[6]! * 10000 + w[7]! * 1000000);
  }
  sample.sort((x, y) => x - y);
  const budget = c.budget === 'all' ? 1e12 : sample[3]!;
  const build: number[] = [];
  const scan: number[] = [];
  const total: number[] = [];
  const cpuTimes: number[] = [];
  let qualified = 0;
  for (let i = 0; i < c.runs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const cpu0 = process.cpuUsage();
    const res = await analyzeTickets(parsed.tickets, parsed.count, {
      pool: c.pool,
      payouts,
      budget: { type: 'fixed', budget },
      workers: c.workers,
    });
    build.push(res.timings.buildMs);
    scan.push(res.timings.scanMs);
    total.push(res.timings.totalMs);
    const cpu = process.cpuUsage(cpu0);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    qualified = res.qualified;
  }
  const masks = ticketMasks(parsed.tickets, parsed.count);
  const rnd = mulberry32(1);
  const wt: number[] = [];
  for (let i = 0; i < 9; i++) {
    const numbers = numbersOfRank(Math.floor(rnd() * warm.draws));
    const t = performance.now();
    findWinners(masks, numbers, 3);
    wt.push(performance.now() - t);
  }
  return {
    ...c,
    parseMs: median(parseTimes),
    buildMs: median(build),
    scanMs: median(scan),
    computeMs: median(total),
    cpuMs: median(cpuTimes),
    coldMs,
    load: loadavg()[0]!,
    draws: warm.draws,
    qualified,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    winnersMs: median(wt),
  };
}

function runChild(c: Case): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // --expose-gc: each timed analysis starts after a full collection, as in a service where the
      // previous result has long been written and dropped (else its ~0.6 GB of qualifying draws in the
      // every-draw case may still be uncollected when the next analysis allocates its own)
      [
        ...process.execArgv,
        '--expose-gc',
        fileURLToPath(import.meta.url),
        '--case',
        JSON.stringify(c),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as CaseResult)
        : reject(new Error(`case failed: ${code}`)),
    );
  });
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--case');
  if (at !== -1) {
    process.stdout.write(JSON.stringify(await runCase(JSON.parse(args[at + 1]!) as Case)));
    return;
  }
  const quick = args.includes('--quick');
  const onlyAll = args.includes('--all-qualify');
  const runsAt = args.indexOf('--runs');
  const runs = runsAt !== -1 ? Number(args[runsAt + 1]) : 3;
  const cases: Case[] = [];
  for (const pool of [35, 45]) {
    for (const tickets of quick ? [100_000] : [100_000, 1_000_000]) {
      for (const dist of ['uniform', 'popular'] as const) {
        cases.push({ pool, tickets, dist, runs, workers: 2, budget: '1%' });
      }
    }
  }
  // memory is this case's point: one timed analysis
  const everyDraw: Case = {
    pool: 45,
    tickets: 1_000_000,
    dist: 'uniform',
    runs: 1,
    workers: 2,
    budget: 'all',
  };
  if (onlyAll) cases.splice(0, cases.length, everyDraw);
  else if (!quick) cases.push(everyDraw);
  const rows: string[] = [
    '| P | T | data | budget | parse | build | scan | compute | compute + parse | compute CPU (all threads) | first run (cold) | draws/s | peak RSS | qualified | winners (1 draw) | load avg |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of cases) {
    const r = await runChild(c);
    const line = `| ${r.pool} | ${r.tickets.toLocaleString('en')} | ${r.dist} | ${r.budget === 'all' ? 'every draw' : '~1% of draws'} | ${fmt(r.parseMs)} | ${fmt(r.buildMs)} | ${fmt(r.scanMs)} | ${fmt(r.computeMs)} | ${fmt(r.computeMs + r.parseMs)} | ${fmt(r.cpuMs)} | ${fmt(r.coldMs)} | ${(r.draws / (r.scanMs / 1000) / 1e6).toFixed(1)} M | ${(r.peakRssMb / 1024).toFixed(2)} GB | ${r.qualified.toLocaleString('en')} | ${r.winnersMs.toFixed(1)} ms | ${r.load.toFixed(1)} |`;
    rows.push(line);
    process.stderr.write(line + '\n');
  }
  process.stdout.write(
    `\nPower 7 engine, ${runs} timed runs per case (medians), 2 worker threads, node ${process.version}\n\n${rows.join('\n')}\n`,
  );
}

await main();
