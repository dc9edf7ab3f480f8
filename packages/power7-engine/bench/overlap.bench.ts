/**
 * What the Power 7 job gains by analysing a file while its session files are written (issue #17):
 *   npx tsx packages/power7-engine/bench/overlap.bench.ts [tickets=1000000] [runs=3]
 * Alternates, on copies of one generated P=35 file: `ingestFile` then `runAnalysis` (the files written
 * before the analysis starts) and `readUpload` then `runAnalysis({ ingested })` (written beside it).
 * Prints the medians after one warm-up round, and the load average (the machine is shared).
 */
import { existsSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeScanWorkers } from '../src/analysis/analyze';
import { ingestFile, readUpload, runAnalysis } from '../src/store/session-store';
import { generateTickets, writeCustomerCsv } from './generate';
import { median } from './yardstick';

const TICKETS = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.argv[3] ?? 3);
const file = join(tmpdir(), `power7-cold-p35-t${TICKETS}.csv`);
if (!existsSync(file)) await writeCustomerCsv(file, generateTickets(TICKETS, 35, 'uniform', 42));
// the budget grows with the tickets, so the share of qualifying draws stays ~86 %
const params = {
  payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
  budget: { type: 'fixed', budget: (270_000 * TICKETS) / 1_000_000 },
  workers: 2,
} as const;
const load = loadavg()[0]!;
const times = { before: [] as number[], beside: [] as number[] };
for (let i = 0; i <= RUNS; i++) {
  for (const mode of ['before', 'beside'] as const) {
    const sessionDir = join(tmpdir(), `power7-overlap-${mode}`);
    await rm(sessionDir, { recursive: true, force: true });
    await copyFile(file, `${sessionDir}.csv`);
    const input = {
      sourcePath: `${sessionDir}.csv`,
      sessionDir,
      pool: 35,
      moveSource: true,
      workers: 2,
    };
    const started = performance.now();
    if (mode === 'before') {
      await ingestFile(input);
      await runAnalysis({ sessionDir, ...params });
    } else {
      await runAnalysis({ sessionDir, ingested: await readUpload(input), ...params });
    }
    if (i > 0) times[mode].push(performance.now() - started);
    await rm(sessionDir, { recursive: true, force: true });
  }
}
await closeScanWorkers();
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `${TICKETS.toLocaleString('en')} tickets, P=35, ${RUNS} runs, load ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n` +
    `read + analysis, session files written before it: ${s(median(times.before))} (${times.before.map(s).join(' / ')})\n` +
    `read + analysis, session files written beside it: ${s(median(times.beside))} (${times.beside.map(s).join(' / ')})`,
);
