import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { prestartScanWorkers } from '../analysis/analyze';
import { capRun, limitRun } from '../analysis/liability';
import { DEFAULT_POOL, validatePool } from '../core/model';
import { readCustomerFile } from '../reading/customer-file';
import { joinNegativeValues, parseNumber, parsePayouts, UsageError } from './args';

/**
 * `power7 limit --file … --payouts … --limit N [--cap] [--json]`: what a liability limit does to a
 * file, as `POST /api/power7/sessions/:id/limit/` (and `…/cap/` with `--cap`) answers it.
 */
export async function limitCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: joinNegativeValues(argv, ['--limit', '--pool', '--workers']),
    strict: true,
    options: {
      file: { type: 'string' },
      payouts: { type: 'string' },
      limit: { type: 'string' },
      cap: { type: 'boolean', default: false },
      pool: { type: 'string' },
      workers: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.file) throw new UsageError('--file is required.');
  if (!values.payouts) throw new UsageError('--payouts is required.');
  if (values.limit === undefined) throw new UsageError('--limit is required.');
  const payouts = parsePayouts(values.payouts);
  const limit = parseNumber(values.limit, '--limit');
  if (Math.abs(Math.round(limit * 100) - limit * 100) > 1e-6) {
    throw new UsageError('--limit may have at most two decimals.');
  }
  const pool = validatePool(
    values.pool === undefined ? DEFAULT_POOL : parseNumber(values.pool, '--pool'),
    '--pool',
  );
  const workers =
    values.workers === undefined
      ? availableParallelism()
      : parseNumber(values.workers, '--workers');
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new UsageError('--workers must be a whole number from 1 to 64.');
  }
  if (workers > 1) prestartScanWorkers(workers, { warmUp: false });
  const file = await readCustomerFile(values.file, {
    pool,
    keepRejected: false,
    parallel: { workers },
  });
  const input = {
    tickets: file.tickets,
    count: file.count,
    pool,
    payouts,
    budget: { type: 'fixed' as const, budget: limit },
    workers,
  };
  const run = await limitRun(input, limit);
  const answer = {
    limit,
    tickets: run.tickets,
    accepted: run.accepted,
    refused: run.refused,
    worstBefore: run.worstBefore,
    worstAfter: run.worstAfter,
    ...(values.cap ? { cap: await capRun(input, limit) } : {}),
  };
  if (values.json) {
    process.stdout.write(JSON.stringify(answer) + '\n');
    return;
  }
  const lines = [
    `Limit ${limit}: ${run.accepted} of ${run.tickets} tickets accepted in file order, ${run.refused} refused.`,
    `Worst draw with every ticket: ${run.worstBefore.combo} pays ${run.worstBefore.totalPayout}.`,
    `Worst draw with the accepted:  ${run.worstAfter.combo} pays ${run.worstAfter.totalPayout}.`,
  ];
  if (answer.cap) {
    const c = answer.cap;
    lines.push(
      c.cap === 0
        ? `No cap fits: one copy of each combination already takes a draw past ${limit}.`
        : `Cap per combination: ${c.cap} (most copies: ${c.maxCopies}), refusing ${c.refused} tickets; worst draw then ${c.worstAtCap?.combo} pays ${c.worstAtCap?.totalPayout}.`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}
