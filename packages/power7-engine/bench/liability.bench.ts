/**
 * Liability-limit benchmark (issue #41): `npm run bench:liability [-- --quick]`.
 *
 * Per case: the first TICKETS (default 1M) of a seeded 1M-ticket file at P=35 (cached in
 * os.tmpdir()), the engine's warm build + scan of the whole file (the yardstick, taking turns with the
 * runs), then the limit run in sales order at limits that SHARES (default 0.1 %, 1 %, 10 %) of the
 * draws exceed with every ticket (the decisions; then, at the first share, the breach draw of every
 * refused ticket that the refused rows' file adds, unless BREACHES=0), and the cap per combination
 * at the first share's limit. Target: the limit run ≤ 3× the yardstick at 0.1 % and 1M tickets,
 * both warm: the first limit run of the process (its kernels not yet compiled) is timed on a row of
 * its own first. `RUNS`, `DIST` (uniform,popular) as named.
 */
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeTickets, closeScanWorkers } from '../src/analysis/analyze';
import { capRun, limitRun } from '../src/analysis/liability';
import { readCustomerFile } from '../src/reading/customer-file';
import { generateTickets, writeCustomerCsv, type Distribution } from './generate';
import { median, yardstickTimer } from './yardstick';

const quick = process.argv.includes('--quick');
const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_000 };
const RUNS = Number(process.env.RUNS ?? (quick ? 1 : 3));
/** Shares of draws the limits leave above them with every ticket (`SHARES=0.001,0.01`). */
const SHARES = (process.env.SHARES ?? '0.001,0.01,0.1').split(',').map(Number);
/** Tickets of the file (`TICKETS=100000`): the first ones of the 1M file. */
const TICKETS = Number(process.env.TICKETS ?? (quick ? 200_000 : 1_000_000));

interface Case {
  pool: number;
  tickets: number;
  dist: Distribution;
}
const cases: Case[] = (process.env.DIST ?? 'uniform,popular')
  .split(',')
  .map((dist) => ({ pool: 35, tickets: TICKETS, dist: dist as Distribution }));

async function runCase(c: Case) {
  const file = join(tmpdir(), `power7-bench-${c.dist}-p${c.pool}-t1000000.csv`);
  if (!existsSync(file))
    await writeCustomerCsv(file, generateTickets(1_000_000, c.pool, c.dist, 42));
  const budget = { type: 'fixed' as const, budget: 1_000_000 };
  const yardstick = await yardstickTimer(file, { pool: c.pool, payouts, budget });
  const all1M = await readCustomerFile(file, { pool: c.pool, keepRejected: false });
  const read = { tickets: all1M.tickets.subarray(0, c.tickets * 7), count: c.tickets };
  const input = {
    tickets: read.tickets,
    count: read.count,
    pool: c.pool,
    payouts,
    budget,
    workers: 2,
  };
  // the limits the shares of draws exceed with every ticket: the totals' quantiles, in currency
  const all = await analyzeTickets(read.tickets, read.count, {
    ...input,
    keepDraws: false,
    sumDistribution: false,
  });
  const sorted = Float64Array.from(all.distribution.totals).sort();
  const limitAt = (share: number) =>
    (sorted[Math.floor(sorted.length * (1 - share))]! * all.weights.unit) / 100;
  const yardTimes: number[] = [];
  const rows: { label: string; limit: number; refused: number; ms: number }[] = [];
  // the first limit run in the process, timed alone: the yardstick is warm (one untimed analysis
  // first), so the runs compared with it are too, and this one says what a cold start costs
  {
    const limit = limitAt(SHARES[0]!) - 1;
    yardTimes.push(await yardstick.time());
    const t0 = performance.now();
    const { refused } = await limitRun(input, limit);
    rows.push({
      label: `first run in the process (cold, not in the target), ${SHARES[0]! * 100} %`,
      limit,
      refused,
      ms: performance.now() - t0,
    });
  }
  for (const share of SHARES) {
    const limit = limitAt(share);
    const times: number[] = [];
    let refused = 0;
    for (let run = 0; run < RUNS; run++) {
      yardTimes.push(await yardstick.time());
      const t0 = performance.now();
      refused = (await limitRun(input, limit + run)).refused;
      times.push(performance.now() - t0);
    }
    rows.push({
      label: `sales order, ${share * 100} % of draws over`,
      limit,
      refused,
      ms: median(times),
    });
    if (share === SHARES[0] && process.env.BREACHES !== '0') {
      // the refused rows' file also names each one's breach draw: the slower walk, once
      yardTimes.push(await yardstick.time());
      const run = await limitRun(input, limit);
      const t0 = performance.now();
      await run.breaches();
      rows.push({
        label: `breach draws of the refused (refused.csv), ${share * 100} %`,
        limit,
        refused: run.refused,
        ms: performance.now() - t0,
      });
    }
  }
  const capTimes: number[] = [];
  let capInfo = '';
  const capLimit = limitAt(SHARES[0]!);
  for (let run = 0; run < RUNS; run++) {
    yardTimes.push(await yardstick.time());
    const t0 = performance.now();
    const cap = await capRun(input, capLimit + run);
    capTimes.push(performance.now() - t0);
    capInfo = `cap ${cap.cap} of ${cap.maxCopies}`;
  }
  rows.push({
    label: `cap per combination (${capInfo}), 0.1 %`,
    limit: capLimit,
    refused: -1,
    ms: median(capTimes),
  });
  return { ...c, yardstickMs: median(yardTimes), rows };
}

const before = loadavg()[0]!;
const results = [];
for (const c of cases) results.push(await runCase(c));
await closeScanWorkers();
console.log(
  `Liability benchmark — median of ${RUNS} per limit; load average ${before.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
);
console.log(
  '| case | yardstick: warm build + scan ms | run | limit | refused | ms | × yardstick |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  for (const row of r.rows) {
    console.log(
      `| P=${r.pool}, ${r.tickets.toLocaleString('en-US')} ${r.dist} | ${r.yardstickMs.toFixed(0)} | ${row.label} | ${row.limit.toLocaleString('en-US')} | ${row.refused < 0 ? '—' : row.refused.toLocaleString('en-US')} | ${row.ms.toFixed(0)} | ${(row.ms / r.yardstickMs).toFixed(2)} |`,
    );
  }
}
