/**
 * Liability-limit benchmark (issue #41): `npm run bench:liability [-- --quick]`.
 *
 * Per case: a seeded 1M-ticket file at P=35 (cached in os.tmpdir()), the engine's warm build + scan
 * of it (the yardstick, taking turns with the runs), then the limit run in sales order at limits that
 * 0.1 %, 1 % and 10 % of the draws exceed with every ticket, and the cap per combination at the 0.1 %
 * limit. Target: the limit run ≤ 3× the yardstick at 0.1 %; the figures at 1 % and 10 % are stated.
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
const RUNS = quick ? 1 : 3;
const SHARES = [0.001, 0.01, 0.1];

interface Case {
  pool: number;
  tickets: number;
  dist: Distribution;
}
const cases: Case[] = quick
  ? [{ pool: 35, tickets: 200_000, dist: 'popular' }]
  : [
      { pool: 35, tickets: 1_000_000, dist: 'uniform' },
      { pool: 35, tickets: 1_000_000, dist: 'popular' },
    ];

async function runCase(c: Case) {
  const file = join(tmpdir(), `power7-bench-${c.dist}-p${c.pool}-t${c.tickets}.csv`);
  if (!existsSync(file))
    await writeCustomerCsv(file, generateTickets(c.tickets, c.pool, c.dist, 42));
  const budget = { type: 'fixed' as const, budget: 1_000_000 };
  const yardstick = await yardstickTimer(file, { pool: c.pool, payouts, budget });
  const read = await readCustomerFile(file, { pool: c.pool, keepRejected: false });
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
