/**
 * Cold-path benchmark (issue #17): `npm run bench:cold [-- --tickets 1000000] [-- --runs 3]
 * [-- --cli-only] [-- --before <another build's dist/cli.mjs>] [-- --budget 270000]`.
 *
 * Measures, in one run on this machine, what a user waits for around the engine, next to a yardstick:
 * - yardstick: the engine's own warm build + scan of the file (in this process, tickets in memory,
 *   kernels warmed by one untimed run);
 * - the CLI from cold, file read included: the compiled bundle (`node …/dist/cli.mjs`) and the sources
 *   through tsx (what `npm run power7` ran before the services were compiled);
 * - both services from start until both answer `/api/ready/`: compiled bundles and tsx.
 * Prints medians, the ratios to the yardstick and the load average (the machine is shared).
 * `--cli-only`: the compiled CLI alone (no tsx, no services). `--before`: another build of the CLI
 * (e.g. of a `git worktree` of main), timed in turn with this one, for a before/after in one run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readCustomerFile } from '../src/reading/customer-file';
import { generateTickets, writeCustomerCsv } from './generate';
import { median, yardstickTimer } from './yardstick';

const root = resolve(import.meta.dirname, '../../..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TICKETS = arg('tickets', 1_000_000);
const RUNS = arg('runs', 3);
const CLI_ONLY = process.argv.includes('--cli-only');
const beforeAt = process.argv.indexOf('--before');
const BEFORE = beforeAt >= 0 ? resolve(process.argv[beforeAt + 1]!) : null;
const POOL = 35;
const PAYOUTS = { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 } as const;
/** 270,000 per 1M tickets: 5.7M of the 6.7M draws qualify; 266,000: about half (issue #42's case). */
const BUDGET = arg('budget', 270_000);

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The file read alone, in this process: one pass on this thread, and in byte ranges on 2 workers. */
async function readTimes(file: string): Promise<{ onePass: number; ranges: number }> {
  const onePass: number[] = [];
  const ranges: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    let started = performance.now();
    await readCustomerFile(file, { pool: POOL, keepRejected: false });
    const a = performance.now() - started;
    started = performance.now();
    await readCustomerFile(file, { pool: POOL, keepRejected: false, parallel: { workers: 2 } });
    const b = performance.now() - started;
    // the first round warms both readers and starts the workers
    if (i > 0) {
      onePass.push(a);
      ranges.push(b);
    }
  }
  return { onePass: median(onePass), ranges: median(ranges) };
}

function timeCli(command: string[], file: string): number {
  const args = [
    ...command,
    'analyze',
    '--file',
    file,
    '--payouts',
    '3=1,4=5,5=50,6=500,7=5000',
    '--budget',
    String(BUDGET),
    '--workers',
    '2',
    '--json',
  ];
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`CLI failed: ${String(run.stderr)}`);
  return performance.now() - started;
}

async function timeStart(compiled: boolean): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pa-cold-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORTAL_PORT: '18700',
    POWER7_PORT: '18701',
    LOG_LEVEL: 'warn',
    DEMO_ADMIN_PASSWORD: 'cold-start-bench-passphrase',
  };
  // The first start of a data folder creates the database: not what a restart costs, so untimed.
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    const entries = ['apps/portal-api', 'apps/power7-api'].map((app) =>
      compiled ? [`${app}/dist/server.mjs`] : ['--import', 'tsx', `${app}/src/server.ts`],
    );
    const children = entries.map((args) => spawn(process.execPath, args, { cwd: root, env }));
    await Promise.all(
      [18700, 18701].map(async (port) => {
        for (;;) {
          try {
            if ((await fetch(`http://127.0.0.1:${port}/api/ready/`)).ok) return;
          } catch {
            // not listening yet
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    const elapsed = performance.now() - started;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => c.once('exit', r))));
    if (round === 1) {
      rmSync(dataDir, { recursive: true, force: true });
      return elapsed;
    }
  }
  throw new Error('unreachable');
}

const file = join(tmpdir(), `power7-cold-p${POOL}-t${TICKETS}.csv`);
if (!existsSync(file)) await writeCustomerCsv(file, generateTickets(TICKETS, POOL, 'uniform', 42));
spawnSync(process.execPath, ['scripts/build-services.mjs'], { cwd: root, stdio: 'inherit' });

const load = loadavg()[0]!;
// the workers stay started: the warm reads below use them
const yardstick = await yardstickTimer(file, {
  pool: POOL,
  payouts: PAYOUTS,
  budget: { type: 'fixed', budget: BUDGET },
});
const read = await readTimes(file);
const warmRuns: number[] = [];
const warmLeanRuns: number[] = [];
const cliBefore: number[] = [];
const cliCompiled: number[] = [];
const cliTsx: number[] = [];
const startCompiled: number[] = [];
const startTsx: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so drift on the shared machine falls on both sides.
  // each round measures the yardstick too, so the ratio compares the same minutes
  warmRuns.push(await yardstick.time());
  warmLeanRuns.push(await yardstick.time(true));
  if (BEFORE) cliBefore.push(timeCli([BEFORE], file));
  cliCompiled.push(timeCli(['packages/power7-engine/dist/cli.mjs'], file));
  if (CLI_ONLY) continue;
  cliTsx.push(timeCli(['--import', 'tsx', 'packages/power7-engine/src/cli/main.ts'], file));
  startCompiled.push(await timeStart(true));
  startTsx.push(await timeStart(false));
}
const warm = median(warmRuns);
const rows: [string, number[]][] = [
  ['yardstick: engine warm build + scan, 2 workers, tickets in memory', warmRuns],
  ['the same, as the CLI analyses (no draw recorded, best 20 kept)', warmLeanRuns],
  ...(BEFORE ? [[`CLI cold, compiled, before (${BEFORE})`, cliBefore] as [string, number[]]] : []),
  ['CLI cold, compiled (file read included)', cliCompiled],
  ...(CLI_ONLY
    ? []
    : ([
        ['CLI cold, tsx from sources', cliTsx],
        ['both services start → ready, compiled', startCompiled],
        ['both services start → ready, tsx', startTsx],
      ] as [string, number[]][])),
];
console.log(
  `\nP=${POOL}, ${TICKETS.toLocaleString('en')} tickets, ${RUNS} runs, load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `file read, warm: one pass ${seconds(read.onePass)}, in byte ranges on 2 workers ${seconds(read.ranges)} (${(read.onePass / read.ranges).toFixed(2)}× faster)\n`,
);
// each row is timed once per round, next to that round's yardstick
const perRound = (times: number[]) =>
  times.length === warmRuns.length ? median(times.map((t, i) => t / warmRuns[i]!)).toFixed(2) : '—';
console.log('| what | median | runs | × yardstick | × yardstick of its round, median |');
console.log('|---|---|---|---|---|');
for (const [what, times] of rows)
  console.log(
    `| ${what} | ${seconds(median(times))} | ${times.map(seconds).join(' / ')} | ${(median(times) / warm).toFixed(2)} | ${perRound(times)} |`,
  );
process.exit(0);
