/**
 * Insight benchmark (issue #25): `npm run bench:insight [-- --quick]`.
 *
 * Per case: a seeded 1M-ticket file (cached in os.tmpdir()), the engine's warm build + scan of it
 * (the yardstick, same run), then the session as the service keeps it (ingest + analysis on 2
 * workers, distribution files on disk) and 100 questions of 50 random budgets each, with the risk
 * questions of issue #40 (5 limits for chances, 3 for expected excesses, 3 shortfall levels), through
 * `OpenSession.insight` — a fresh bin cache per question, as each HTTP request has. Prints p50/p95
 * per question, the analysis time beside the yardstick, and what the distribution takes on disk and
 * in memory.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { closeScanWorkers } from '../src/analysis/analyze';
import { ingestFile, openSession, runAnalysis, SESSION_FILES } from '../src/store/session-store';
import { generateTickets, mulberry32, writeCustomerCsv, type Distribution } from './generate';
import { engineYardstick } from './yardstick';

const quick = process.argv.includes('--quick');
const payouts = { 3: 10, 4: 100, 5: 1000, 6: 10000, 7: 1000000 };
const QUESTIONS = quick ? 20 : 100;

interface Case {
  pool: number;
  tickets: number;
  dist: Distribution;
}
const cases: Case[] = quick
  ? [{ pool: 35, tickets: 200_000, dist: 'uniform' }]
  : [
      { pool: 35, tickets: 1_000_000, dist: 'uniform' },
      { pool: 35, tickets: 1_000_000, dist: 'popular' },
      { pool: 49, tickets: 1_000_000, dist: 'uniform' },
    ];

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function runCase(c: Case) {
  const file = join(tmpdir(), `power7-bench-${c.dist}-p${c.pool}-t${c.tickets}.csv`);
  if (!existsSync(file))
    await writeCustomerCsv(file, generateTickets(c.tickets, c.pool, c.dist, 42));
  const budget = { type: 'fixed' as const, budget: 1_000_000 };
  const yardstickMs = await engineYardstick(file, { pool: c.pool, payouts, budget, runs: 3 });
  const dir = await mkdtemp(join(tmpdir(), 'p7-insight-bench-'));
  try {
    const sessionDir = join(dir, 's');
    await ingestFile({ sourcePath: file, sessionDir, pool: c.pool });
    const started = performance.now();
    const analysis = await runAnalysis({ sessionDir, payouts, budget, workers: 2 });
    const analysisMs = performance.now() - started;
    const session = await openSession(sessionDir);
    const rnd = mulberry32(7);
    const { min, max } = analysis.stats;
    const times: number[] = [];
    for (let q = 0; q < QUESTIONS; q++) {
      const budgets = Array.from(
        { length: 50 },
        () => Math.round((min + rnd() * (max - min)) * 100) / 100,
      );
      // and the risk questions a page asks beside them (issue #40): limits, excess limits, shortfall
      const exceedTargets = [0.01, 0.001, 0.0001, 1e-6, 0];
      const excessTargets = [rnd() * 1000, rnd() * 100, 1];
      const shortfallLevels = [0.99, 0.999, 0.9999];
      const t0 = performance.now();
      await session.insight({ budgets, exceedTargets, excessTargets, shortfallLevels });
      times.push(performance.now() - t0);
    }
    session.close();
    const diskMb = (await stat(join(sessionDir, SESSION_FILES.distribution))).size / 2 ** 20;
    return {
      ...c,
      draws: analysis.draws,
      yardstickMs,
      analysisMs,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      diskMb,
      load: loadavg()[0]!,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const c of cases) rows.push(await runCase(c));
await closeScanWorkers();
console.log(
  `Insight benchmark — ${QUESTIONS} questions of 50 budgets per case, 2 workers; load average ${loadavg()[0]!.toFixed(2)}\n`,
);
console.log(
  '| case | draws | yardstick: warm build + scan ms | analysis incl. files ms | question p50 ms | p95 ms | distribution on disk MB |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| P=${r.pool}, ${r.tickets.toLocaleString('en-US')} ${r.dist} | ${r.draws.toLocaleString('en-US')} | ${r.yardstickMs.toFixed(0)} | ${r.analysisMs.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.diskMb.toFixed(0)} |`,
  );
}
console.log(
  `\nTargets: p95 ≤ 50 ms at P=35 → ${rows
    .filter((r) => r.pool === 35)
    .map((r) => `${r.p95.toFixed(1)} ms ${r.p95 <= 50 ? 'MET' : 'MISSED'}`)
    .join(', ')}; ≤ 1 s at P=49 → ${rows
    .filter((r) => r.pool === 49)
    .map((r) => `${r.p95.toFixed(1)} ms ${r.p95 <= 1000 ? 'MET' : 'MISSED'}`)
    .join(
      ', ',
    )}. Memory of an open session's insight: the index, 1.5 MB (65,536 bins × 3 × 8 B), plus one bin per budget while a question runs.`,
);
