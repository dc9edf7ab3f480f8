/**
 * The yardstick of the cold-path benchmarks (issue #17): what the engine itself needs once warm, measured
 * in the same run as what it is compared with, since this shared machine's speed drifts from one
 * hour to the next.
 */
import { analyzeTickets, closeScanWorkers } from '../src/analysis/analyze';
import { readCustomerFile } from '../src/reading/customer-file';
import type { Budget, Payouts } from '../src/core/model';

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export interface YardstickOptions {
  pool: number;
  payouts: Payouts;
  budget: Budget;
  runs: number;
  workers?: number;
}

/**
 * The engine's warm build + scan of a file, in ms (median of `runs`): tickets already in memory,
 * kernels and worker threads warmed by one untimed run. The workers are stopped afterwards unless
 * `keepWorkers`.
 */
export async function engineYardstick(
  file: string,
  opts: YardstickOptions & { keepWorkers?: boolean },
): Promise<number> {
  const timer = await yardstickTimer(file, opts);
  const times: number[] = [];
  for (let i = 0; i < opts.runs; i++) times.push(await timer.time());
  if (!opts.keepWorkers) await closeScanWorkers();
  return median(times);
}

/**
 * One warm build + scan at a time, to take turns with what it is compared with (a drifting shared
 * machine then weighs on both alike): the file read and the kernels warmed once, here. `lean`:
 * as the CLI analyses (no draw recorded, the best 20 kept by the scan: `keepDraws: false`).
 */
export async function yardstickTimer(
  file: string,
  opts: Omit<YardstickOptions, 'runs'>,
): Promise<{ time(lean?: boolean): Promise<number> }> {
  const parsed = await readCustomerFile(file, { pool: opts.pool, keepRejected: false });
  const options = {
    pool: opts.pool,
    payouts: opts.payouts,
    budget: opts.budget,
    workers: opts.workers ?? 2,
  };
  const lean = { ...options, keepDraws: false, topDraws: 20, sumDistribution: false };
  // warms the kernels and workers, both ways
  await analyzeTickets(parsed.tickets, parsed.count, options);
  await analyzeTickets(parsed.tickets, parsed.count, lean);
  return {
    async time(asCli = false) {
      const res = await analyzeTickets(parsed.tickets, parsed.count, asCli ? lean : options);
      return res.timings.buildMs + res.timings.scanMs;
    },
  };
}
