/**
 * Live book benchmark (issue #41 part 4): `npm run bench:book [-- --quick]`.
 *
 * A seeded 1M-ticket file at P=35 (`POOL=49` for the other game; cached in os.tmpdir()), the limit
 * that SHARE (default 0.1 %) of the draws exceed with every ticket. Measured in one run, taking turns
 * with the yardstick (the engine's warm build + scan of the file):
 * - opening the book: the limit run (the tickets the limit accepts), then the book's own part —
 *   the accepted and refused tickets' bytes, and every draw's total with all the tickets (the limit
 *   run's, as a session keeps them) less the refused tickets' (their tables and one pass over the
 *   draws; `NO_SEED=1`: one analysis of the accepted); the target: the book's part ≤ one warm
 *   analysis (the yardstick); a first, cold round is timed on rows of its own, then RUNS rounds;
 * - a one-ticket check (dry run) and a one-ticket sale, each with the sales log's append + fdatasync
 *   that the service adds, over CHECKS random tickets: p50 / p95;
 * - tickets sold per second in requests of 100 (folds included), and the book's memory.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeTickets, closeScanWorkers } from '../src/analysis/analyze';
import { LiveBookTotals } from '../src/analysis/book';
import { everyDrawTotal } from '../src/analysis/exposure';
import { limitRun } from '../src/analysis/liability';
import { readCustomerFile } from '../src/reading/customer-file';
import { generateTickets, mulberry32, writeCustomerCsv } from './generate';
import { median, yardstickTimer } from './yardstick';

const quick = process.argv.includes('--quick');
const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_000 };
const POOL = Number(process.env.POOL ?? 35);
const SHARE = Number(process.env.SHARE ?? 0.001);
const TICKETS = Number(process.env.TICKETS ?? (quick ? 200_000 : 1_000_000));
const CHECKS = Number(process.env.CHECKS ?? (quick ? 200 : 1000));
const RUNS = Number(process.env.RUNS ?? (quick ? 1 : 3));

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

const file = join(tmpdir(), `power7-bench-uniform-p${POOL}-t${TICKETS}.csv`);
if (!existsSync(file)) await writeCustomerCsv(file, generateTickets(TICKETS, POOL, 'uniform', 42));
const budget = { type: 'fixed' as const, budget: 1_000_000 };
const before = loadavg()[0]!;
const yardstick = await yardstickTimer(file, { pool: POOL, payouts, budget });
const read = await readCustomerFile(file, { pool: POOL, keepRejected: false });
const input = { tickets: read.tickets, count: read.count, pool: POOL, payouts, budget, workers: 2 };
const all = await analyzeTickets(read.tickets, read.count, {
  ...input,
  keepDraws: false,
  sumDistribution: false,
});
const sorted = Float64Array.from(all.distribution.totals).sort();
const limit = (sorted[Math.floor(sorted.length * (1 - SHARE))]! * all.weights.unit) / 100;

const yardTimes: number[] = [];
const limitTimes: number[] = [];
const openTimes: number[] = [];
let book: LiveBookTotals | undefined;
let lastAccepted: Uint8Array | undefined;
let accepted = 0;
// the first round of the process on a row of its own (as bench:liability's first limit run): it
// compiles the sales order's kernels in this thread; the target compares warm with warm
let coldLimit = 0;
let coldOpen = 0;
for (let run = -1; run < RUNS; run++) {
  if (run >= 0) yardTimes.push(await yardstick.time());
  const t0 = performance.now();
  // the limit run as before (its analysis of every ticket, then the sales order), the totals kept:
  // a session holds them, and the book opens from them
  const totals = await everyDrawTotal(input);
  const limitAnswer = await limitRun(input, limit, undefined, totals);
  const t1 = performance.now();
  // the accepted and the refused tickets, byte by byte (a view per ticket cost ~40 ms of the open)
  const kept = new Uint8Array(limitAnswer.accepted * 7);
  const refused = new Uint8Array(limitAnswer.refused * 7);
  const { refusedMask } = limitAnswer;
  for (let t = 0, o = 0, r = 0; t < read.count; t++) {
    if (refusedMask[t])
      for (let i = t * 7, end = i + 7; i < end; i++) refused[r++] = read.tickets[i]!;
    else for (let i = t * 7, end = i + 7; i < end; i++) kept[o++] = read.tickets[i]!;
  }
  book = await LiveBookTotals.open(
    { pool: POOL, payouts, limit, workers: 2 },
    kept,
    process.env.NO_SEED ? undefined : { totals: totals.totals, unit: totals.unit, refused },
  );
  lastAccepted = kept;
  if (run < 0) {
    [coldLimit, coldOpen] = [t1 - t0, performance.now() - t1];
  } else {
    openTimes.push(performance.now() - t1);
    limitTimes.push(t1 - t0);
  }
  accepted = limitAnswer.accepted;
}
const live = book!;

// random tickets, as a terminal would offer them
const rnd = mulberry32(7);
const randomTicket = () => {
  const t: number[] = [];
  while (t.length < 7) {
    const n = 1 + Math.floor(rnd() * POOL);
    if (!t.includes(n)) t.push(n);
  }
  return Uint8Array.from(t.sort((a, b) => a - b));
};
const dir = await mkdtemp(join(tmpdir(), 'p7-book-bench-'));
const log = await open(join(dir, 'sales.log'), 'a');
const logged = async () => {
  await log.write(
    `${JSON.stringify({ at: new Date().toISOString(), t: [1, 2, 3, 4, 5, 6, 7] })}\n`,
  );
  await log.datasync();
};

const checkTimes: number[] = [];
for (let i = 0; i < CHECKS; i++) {
  const t0 = performance.now();
  await live.offer(randomTicket(), false);
  live.worst();
  checkTimes.push(performance.now() - t0);
}
const saleTimes: number[] = [];
let sold = 0;
for (let i = 0; i < CHECKS; i++) {
  const t0 = performance.now();
  const answer = await live.offer(randomTicket(), true);
  if (answer.accepted) sold++;
  await logged();
  live.worst();
  saleTimes.push(performance.now() - t0);
}
// requests of 100: check and sell each, one log write per request
const batches = quick ? 5 : 20;
const tb = performance.now();
for (let b = 0; b < batches; b++) {
  for (let i = 0; i < 100; i++) if ((await live.offer(randomTicket(), true)).accepted) sold++;
  await logged();
  live.worst();
}
const perSecond = (batches * 100) / ((performance.now() - tb) / 1000);
// a book with room (limit twice its worst draw): nearly every ticket is sold, folds included
const worstNow = live.worst().totalPayout;
const roomy = await LiveBookTotals.open(
  { pool: POOL, payouts, limit: Math.round(worstNow * 2), workers: 2 },
  lastAccepted!,
);
let soldRoomy = 0;
const tr = performance.now();
for (let b = 0; b < batches; b++) {
  for (let i = 0; i < 100; i++) if ((await roomy.offer(randomTicket(), true)).accepted) soldRoomy++;
  await logged();
  roomy.worst();
}
const roomyPerSecond = soldRoomy / ((performance.now() - tr) / 1000);
// the same book sold on until its first fold (one analysis of the sales since it opened) is in:
// the rate over every sale from its opening, the fold included (at most 20,000 sales)
let throughFold = soldRoomy;
while (roomy.folds === 0 && throughFold < 20_000) {
  for (let i = 0; i < 100; i++)
    if ((await roomy.offer(randomTicket(), true)).accepted) throughFold++;
  await logged();
  roomy.worst();
}
const foldPerSecond = throughFold / ((performance.now() - tr) / 1000);
yardTimes.push(await yardstick.time());
await log.close();
await rm(dir, { recursive: true, force: true });
await closeScanWorkers();

const yard = median(yardTimes);
console.log(
  `Live book benchmark — P=${POOL}, ${TICKETS.toLocaleString('en-US')} uniform tickets, limit ${limit.toLocaleString('en-US')} (${SHARE * 100} % of draws over it with every ticket); load average ${before.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
);
console.log('| figure | value | × yardstick |');
console.log('|---|---|---|');
console.log(
  `| yardstick: warm build + scan (median of ${yardTimes.length}) | ${yard.toFixed(0)} ms | 1 |`,
);
const row = (label: string, ms: number) =>
  console.log(`| ${label} | ${ms.toFixed(ms < 10 ? 2 : 0)} ms | ${(ms / yard).toFixed(2)} |`);
row('first round in the process (cold, not in the target): limit run', coldLimit);
row("first round in the process (cold, not in the target): the book's part", coldOpen);
row(`limit run (${accepted.toLocaleString('en-US')} accepted)`, median(limitTimes));
row(
  process.env.NO_SEED
    ? 'open: one analysis of the accepted tickets'
    : "open: the book's part (every draw's total less the refused tickets')",
  median(openTimes),
);
row("open: limit run + the book's part", median(limitTimes) + median(openTimes));
row('target: limit run + one warm analysis', median(limitTimes) + yard);
console.log(
  `| one-ticket check (dry run) p50 / p95 | ${p(checkTimes, 0.5).toFixed(2)} / ${p(checkTimes, 0.95).toFixed(2)} ms | |`,
);
console.log(
  `| one-ticket sale + fdatasync p50 / p95 | ${p(saleTimes, 0.5).toFixed(2)} / ${p(saleTimes, 0.95).toFixed(2)} ms | |`,
);
console.log(
  `| checked and sold in requests of 100 (most refused: the book is full) | ${perSecond.toFixed(0)} tickets/s | |`,
);
console.log(
  `| sold in requests of 100, a book with room (limit 2 × its worst draw; ${soldRoomy} of ${batches * 100} sold) | ${roomyPerSecond.toFixed(0)} tickets/s | |`,
);
console.log(
  `| the same book sold on through its first fold (${roomy.folds ? 'folded' : 'no fold'} after ${throughFold} sales) | ${foldPerSecond.toFixed(0)} tickets/s | |`,
);
console.log(`| tickets sold (of offered) | ${sold} | |`);
console.log(
  `| book memory (totals, watch, count tables) | ${(live.bytes / 1024 / 1024).toFixed(0)} MB | |`,
);
const { watched, foldEvery, fivesWatched } = live.shape;
console.log(
  `| watch: draws near the limit / sales between folds / 5-matches watched | ${watched.toLocaleString('en-US')} / ${foldEvery} / ${fivesWatched ? 'yes' : 'no'} | |`,
);
