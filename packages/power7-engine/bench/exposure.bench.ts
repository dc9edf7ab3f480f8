/**
 * Exposure benchmark (issue #40): `npm run bench:exposure [-- --quick]`.
 *
 * Per case: a seeded 1M-ticket file at P=35 (cached in os.tmpdir()), the engine's warm build + scan
 * of it (the yardstick, same run, taking turns with the exposure runs), then the session as the
 * service keeps it: the first exposure question of a session opened anew (it also makes every draw's
 * total and the distinct combinations, which the open session keeps for every line), then the
 * ranking by combination at lines that leave 0.1 %, 1 %, 10 % and 50 % of the draws above them (each
 * a new line: no line's answer cached), and by customer at the 1 % line (its first question also
 * reads the customer column once).
 * Targets: ≤ 1× the yardstick when ≤ 1 % of draws are above the line, ≤ 3× for any line.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeScanWorkers } from '../src/analysis/analyze';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { generateTickets, writeCustomerCsv, type Distribution } from './generate';
import { median, yardstickTimer } from './yardstick';

const quick = process.argv.includes('--quick');
const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_000 };
const RUNS = quick ? 1 : 3;
const SHARES = [0.001, 0.01, 0.1, 0.5];

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
  const dir = await mkdtemp(join(tmpdir(), 'p7-exposure-bench-'));
  try {
    const sessionDir = join(dir, 's');
    await ingestFile({ sourcePath: file, sessionDir, pool: c.pool });
    await runAnalysis({ sessionDir, payouts, budget, workers: 2 });
    let session = await openSession(sessionDir);
    const { limits } = await session.insight({ exceedTargets: SHARES });
    // the first question of an open session also makes what every line shares (every draw's total,
    // the distinct combinations): a session opened anew each run
    const firstTimes: number[] = [];
    const yardTimes: number[] = [];
    let firstDraws = 0;
    for (let run = 0; run < RUNS; run++) {
      session.close();
      session = await openSession(sessionDir);
      yardTimes.push(await yardstick.time());
      const t0 = performance.now();
      firstDraws = (
        await session.exposure({ over: limits[1]!.budget, by: 'combination', limit: 100 })
      ).draws;
      firstTimes.push(performance.now() - t0);
    }
    const rows: { label: string; over: number; draws: number; ms: number }[] = [
      {
        label: 'first question of an opened session, by combination, 1 % above',
        over: limits[1]!.budget,
        draws: firstDraws,
        ms: median(firstTimes),
      },
    ];
    for (const [i, share] of SHARES.entries()) {
      const times: number[] = [];
      let draws = 0;
      for (let run = 0; run < RUNS; run++) {
        yardTimes.push(await yardstick.time());
        // a line a cent further each run (and from the first question's): a new line, never the
        // session's kept answer
        const over = limits[i]!.budget + (run + 1) * 0.01;
        const t0 = performance.now();
        draws = (await session.exposure({ over, by: 'combination', limit: 100 })).draws;
        times.push(performance.now() - t0);
      }
      rows.push({
        label: `by combination, ${(share * 100).toString()} % above`,
        over: limits[i]!.budget,
        draws,
        ms: median(times),
      });
    }
    const customerTimes: number[] = [];
    let customerDraws = 0;
    for (let run = 0; run < RUNS; run++) {
      yardTimes.push(await yardstick.time());
      const over = limits[1]!.budget + 1 + run * 0.01;
      const t0 = performance.now();
      customerDraws = (await session.exposure({ over, by: 'customer', limit: 100 })).draws;
      customerTimes.push(performance.now() - t0);
    }
    rows.push({
      label: 'by customer, 1 % above',
      over: limits[1]!.budget + 1,
      draws: customerDraws,
      ms: median(customerTimes),
    });
    session.close();
    return { ...c, yardstickMs: median(yardTimes), rows };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const before = loadavg()[0]!;
const results = [];
for (const c of cases) results.push(await runCase(c));
await closeScanWorkers();
console.log(
  `Exposure benchmark — median of ${RUNS} per line; load average ${before.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
);
console.log(
  '| case | yardstick: warm build + scan ms | ranking | draws above | ms | × yardstick |',
);
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  for (const row of r.rows) {
    const ratio = row.ms / r.yardstickMs;
    console.log(
      `| P=${r.pool}, ${r.tickets.toLocaleString('en-US')} ${r.dist} | ${r.yardstickMs.toFixed(0)} | ${row.label} | ${row.draws.toLocaleString('en-US')} | ${row.ms.toFixed(0)} | ${ratio.toFixed(2)} |`,
    );
  }
}
