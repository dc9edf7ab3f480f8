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
  const parsed = await readCustomerFile(file, { pool: opts.pool, keepRejected: false });
  const options = {
    pool: opts.pool,
    payouts: opts.payouts,
    budget: opts.budget,
    workers: opts.workers ?? 2,
  };
  await analyzeTickets(parsed.tickets, parsed.count, options); // warms the kernels and workers
  const times: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const res = await analyzeTickets(parsed.tickets, parsed.count, options);
    times.push(res.timings.buildMs + res.timings.scanMs);
  }
  if (!opts.keepWorkers) await closeScanWorkers();
  return median(times);
}
