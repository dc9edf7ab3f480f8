/**
 * The engine's command line (docs/product/services.md "Operating it"):
 *
 *   npm run power7 -- analyze --file customers.csv --payouts 3=10,4=100,5=1000,6=10000,7=1000000
 *                     (--budget N | --budget-min A --budget-max B) [--pool 35] [--workers N] --json
 *   npm run power7 -- winners --file customers.csv --combo 3-8-12-19-24-30-35 [--match 3..7|all]
 *                     [--pool 35] [--payouts ...] [--out winners.csv]
 *   npm run power7 -- limit --file customers.csv --payouts … --limit 1500000 [--cap] [--json]
 *
 * Exactly one JSON object on stdout with --json; progress on stderr only when stderr is a terminal;
 * bad flags → a message on stderr and exit code 2; bad files / data → a message and exit code 1.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { analyzeTickets, prestartScanWorkers } from '../analysis/analyze';
import { drawQuantiles } from './draw-quantiles';
import { readCustomerFile } from '../reading/customer-file';
import { SNIFF_BYTES } from '../reading/file-sniff';
import { unitsToAmount } from '../core/weights';
import { EngineError } from '../core/errors';
import {
  type Budget,
  DEFAULT_POOL,
  formatCombo,
  MATCH_TYPES,
  type MatchType,
  type Payouts,
  parseCombo,
  validateBudget,
  validatePool,
} from '../core/model';
import { RowReader, ticketMasks, winnersCsv } from '../analysis/winners';
import { joinNegativeValues, parseNumber, parsePayouts, UsageError } from './args';
import { limitCommand } from './limit-command';

const USAGE = `Usage:
  power7 analyze --file <csv|xlsx> --payouts 3=A,4=B,5=C,6=D,7=E (--budget N | --budget-min A --budget-max B) [--pool 35] [--workers N] [--json]
  power7 winners --file <csv|xlsx> --combo 3-8-12-19-24-30-35 [--match 3..7|all] [--pool 35] [--payouts ...] [--out path]
  power7 limit --file <csv|xlsx> --payouts 3=A,4=B,5=C,6=D,7=E --limit N [--cap] [--pool 35] [--workers N] [--json]`;

function progressBar(enabled: boolean) {
  let last = -1;
  return {
    update(label: string, fraction: number) {
      if (!enabled) return;
      const pct = Math.floor(fraction * 100);
      if (pct === last) return;
      last = pct;
      const width = 30;
      const filled = Math.round((width * pct) / 100);
      process.stderr.write(
        `\r${label.padEnd(10)} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${pct}%`,
      );
    },
    done() {
      if (enabled && last !== -1) process.stderr.write('\n');
    },
  };
}

async function analyzeCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: joinNegativeValues(argv, [
      '--budget',
      '--budget-min',
      '--budget-max',
      '--pool',
      '--workers',
    ]),
    strict: true,
    options: {
      file: { type: 'string' },
      payouts: { type: 'string' },
      budget: { type: 'string' },
      'budget-min': { type: 'string' },
      'budget-max': { type: 'string' },
      pool: { type: 'string' },
      workers: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.file) throw new UsageError('--file is required.');
  if (!values.payouts) throw new UsageError('--payouts is required.');
  const payouts = parsePayouts(values.payouts);
  const hasFixed = values.budget !== undefined;
  const hasRange = values['budget-min'] !== undefined || values['budget-max'] !== undefined;
  if (hasFixed === hasRange) {
    throw new UsageError('Give either --budget N or both --budget-min A and --budget-max B.');
  }
  let budget: Budget;
  if (hasFixed) budget = { type: 'fixed', budget: parseNumber(values.budget, '--budget') };
  else {
    if (values['budget-min'] === undefined || values['budget-max'] === undefined) {
      throw new UsageError('--budget-min and --budget-max go together.');
    }
    budget = {
      type: 'range',
      min: parseNumber(values['budget-min'], '--budget-min'),
      max: parseNumber(values['budget-max'], '--budget-max'),
    };
  }
  budget = validateBudget(budget);
  const pool = validatePool(
    values.pool === undefined ? DEFAULT_POOL : parseNumber(values.pool, '--pool'),
    '--pool',
  );
  const workers =
    values.workers === undefined ? undefined : parseNumber(values.workers, '--workers');
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1 || workers > 64)) {
    throw new UsageError('--workers must be a whole number from 1 to 64.');
  }

  const bar = progressBar(Boolean(process.stderr.isTTY));
  // the scan workers start while the file's head is read, then read its ranges, then scan; one
  // analysis and the process ends, so they skip the kernels' warm-up (see StartOptions)
  const threads = workers ?? availableParallelism();
  if (threads > 1) prestartScanWorkers(threads, { warmUp: false });
  const size = (await stat(values.file)).size;
  const file = await readCustomerFile(values.file, {
    pool,
    keepRejected: false,
    // the tickets only: no line, offset or length per row (the analysis prints none)
    rows: false,
    onBytes: (b) => bar.update('reading', Math.min(0.99, b / size)),
    // each worker counts the 6-subsets of the range it has just read (the analysis' first step);
    // a short head read here, cold, so that the ranges go out sooner
    parallel: { workers: threads, count: true, headBytes: SNIFF_BYTES },
  });
  const res = await analyzeTickets(file.tickets, file.count, {
    pool,
    payouts,
    budget,
    ...(workers ? { workers } : {}),
    ...(file.counted ? { counted: file.counted } : {}),
    onProgress: (p) => bar.update(p.phase, p.fraction),
    // only the best 20 are printed: kept by the workers as they scan, no draw recorded
    keepDraws: false,
    topDraws: 20,
    // quantiles only: no per-bin sums, and the draws counted per total when their bound allows
    sumDistribution: false,
    exactTotals: true,
  });
  bar.done();
  const top = res.top.map((d) => ({
    combo: formatCombo(d.numbers),
    winners: d.winners,
    totalPayout: unitsToAmount(d.total, res.weights.unit),
  }));
  const out = {
    pool,
    tickets: file.count,
    rejectedRows: file.rejectedCount,
    draws: res.draws,
    qualified: res.qualified,
    totalPayout: { min: res.stats.min, mean: res.stats.mean, max: res.stats.max },
    top,
    // exact, over every draw (as the service's insight): q = the smallest total T with ≥ q % of draws ≤ T
    quantiles: await drawQuantiles(res.distribution, threads),
    /** Draws with at least one 7-match winner. */
    jackpotDraws: res.jackpotDraws,
  };
  if (values.json) {
    process.stdout.write(JSON.stringify(out) + '\n');
  } else {
    const lines = [
      `pool ${pool}: ${file.count} tickets (${file.rejectedCount} rows rejected), ${res.draws} draws, ${res.qualified} qualify`,
      `total payout over all draws: min ${out.totalPayout.min}, mean ${out.totalPayout.mean}, max ${out.totalPayout.max}`,
      ...top.map(
        (d) =>
          `${d.combo.padEnd(22)} ${MATCH_TYPES.map((m) => `${m}:${d.winners[m]}`).join(' ')}  total ${d.totalPayout}`,
      ),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
}

async function winnersCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: joinNegativeValues(argv, ['--pool']),
    strict: true,
    options: {
      file: { type: 'string' },
      combo: { type: 'string' },
      match: { type: 'string', default: 'all' },
      pool: { type: 'string' },
      payouts: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.file) throw new UsageError('--file is required.');
  if (!values.combo) throw new UsageError('--combo is required.');
  const pool = validatePool(
    values.pool === undefined ? DEFAULT_POOL : parseNumber(values.pool, '--pool'),
    '--pool',
  );
  const numbers = parseCombo(values.combo, pool);
  let matchType: MatchType | 'all';
  if (values.match === 'all') matchType = 'all';
  else if (/^[3-7]$/.test(values.match ?? '')) matchType = Number(values.match) as MatchType;
  else throw new UsageError('--match must be 3, 4, 5, 6, 7 or all.');
  const payouts = values.payouts
    ? parsePayouts(values.payouts)
    : ({ 3: '', 4: '', 5: '', 6: '', 7: '' } as unknown as Payouts);

  const tmp = await mkdtemp(join(tmpdir(), 'power7-cli-'));
  try {
    const copy = join(tmp, 'rows.csv');
    // for XLSX the row offsets refer to the CSV form of the sheet, kept here for the row reader
    const sheetCsv: Buffer[] = [];
    const file = await readCustomerFile(values.file, {
      pool,
      keepRejected: false,
      csvCopy: (c) => sheetCsv.push(c),
    });
    const isCopy = file.format === 'xlsx';
    if (isCopy) await writeFile(copy, Buffer.concat(sheetCsv));
    const rows = new RowReader(
      isCopy ? copy : values.file,
      file.delimiter,
      file.offsets,
      file.lengths,
    );
    const out = values.out ? createWriteStream(values.out) : process.stdout;
    for await (const chunk of winnersCsv({
      header: file.columns.header,
      tickets: file.tickets,
      masks: ticketMasks(file.tickets, file.count),
      rows,
      numbers,
      matchType,
      payouts,
    })) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (values.out) {
      out.end();
      await once(out, 'finish');
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'analyze') await analyzeCommand(rest);
    else if (command === 'winners') await winnersCommand(rest);
    else if (command === 'limit') await limitCommand(rest);
    else if (command === undefined || command === '--help' || command === 'help') {
      process.stderr.write(USAGE + '\n');
      return command === undefined ? 2 : 0;
    } else throw new UsageError(`Unknown command "${command}".`);
    return 0;
  } catch (err) {
    if (
      err instanceof UsageError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`power7: ${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof EngineError) {
      process.stderr.write(`power7: ${err.message}\n`);
      return err.code === 'INVALID_PARAMS' || err.code === 'INVALID_COMBO' ? 2 : 1;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`power7: file not found: ${(err as NodeJS.ErrnoException).path}\n`);
      return 1;
    }
    process.stderr.write(`power7: unexpected failure: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('cli/main.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
