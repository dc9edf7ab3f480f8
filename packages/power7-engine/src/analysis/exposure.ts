import os from 'node:os';
import { throwIfAborted } from '../core/errors';
import {
  byPayoutThenKey,
  countOnSide,
  distinctTickets,
  drawsOnSide,
  ensureExactTail,
  matchesOfAllDraws,
  matchesWith,
  tailOf,
  topIndexes,
  type DistinctTickets,
} from '../core/exposure';
import { type Budget, formatCombo, type Payouts, PICK } from '../core/model';
import { SharedBufferLease } from '../core/shared-buffers';
import { countTables, INLINE_BUILD, type CountTables } from '../core/tables';
import { buildOnWorkers, releaseWorkers, takeWorkers } from '../parallel/workers';
import { analyzeTickets, type AnalyzeOptions } from './analyze';

/** What one line's exposure needs: the session's tickets and the analysis it was run with. */
export interface ExposureInput {
  tickets: Uint8Array;
  count: number;
  pool: number;
  payouts: Payouts;
  budget: Budget;
  workers?: number;
  signal?: AbortSignal;
  loadCounts?: AnalyzeOptions['loadCounts'];
}

/** Every distinct combination's share of the draws above one line, in units. */
export interface CombinationExposure {
  /** The line in cents, and in units (a total t is above it when t > lineUnits). */
  lineCents: number;
  unit: number;
  /** Draws above the line and Σ of their totals (units). */
  draws: number;
  tailTotal: number;
  distinct: DistinctTickets;
  /** Per distinct combination: draws above the line where it has ≥ 3 matches. */
  drawsWon: Float64Array;
  /** Per distinct combination: one copy's payouts summed over the draws above the line (units). */
  perCopy: Float64Array;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Combinations evaluated between two yields to the event loop (~20 ms). */
const SLICE = 32_768;

/**
 * The exposure of each distinct combination above `lineCents`: every draw's total from one analysis
 * of the tickets (the session's stored count tables make it a warm one), then the draws on the
 * smaller side of the line counted as tickets (`core/exposure.ts`), then ~100 lookups per combination.
 * Exact for any line; the cost is about one analysis plus the draws' count tables.
 */
export async function combinationExposure(
  input: ExposureInput,
  lineCents: number,
): Promise<CombinationExposure> {
  const { tickets, count, pool, signal } = input;
  const res = await analyzeTickets(tickets, count, {
    pool,
    payouts: input.payouts,
    budget: input.budget,
    keepDraws: false,
    sumDistribution: false,
    ...(input.workers !== undefined ? { workers: input.workers } : {}),
    ...(signal ? { signal } : {}),
    ...(input.loadCounts ? { loadCounts: input.loadCounts } : {}),
  });
  const { totals } = res.distribution;
  const { unit, w } = res.weights;
  const line = Math.floor(lineCents / unit);
  const tail = tailOf(totals, line);
  const tailTotal = ensureExactTail(tail.total);
  // the smaller side is counted: the other follows from the whole game's counts
  const above = tail.draws <= totals.length / 2;
  const sideCount = countOnSide(totals, line, above);
  const tables =
    sideCount > 0 ? await drawTables(totals, pool, line, above, sideCount, input) : null;
  throwIfAborted(signal);

  const distinct = distinctTickets(tickets, count);
  const n = distinct.ranks.length;
  const drawsWon = new Float64Array(n);
  const perCopy = new Float64Array(n);
  const all = matchesOfAllDraws(pool);
  const m = new Float64Array(8);
  for (let k = 0; k < n; k++) {
    if (k % SLICE === SLICE - 1) {
      await yieldToLoop();
      throwIfAborted(signal);
    }
    const onSide = totals[distinct.ranks[k]!]! > line === above;
    if (tables) matchesWith(tables, distinct.numbers, k * PICK, onSide ? 1 : 0, m);
    else m.fill(0);
    let won = 0;
    let pays = 0;
    for (let j = 3; j <= PICK; j++) {
      const over = above ? m[j]! : all[j]! - m[j]!;
      won += over;
      pays += over * w[j]!;
    }
    drawsWon[k] = won;
    perCopy[k] = pays;
  }
  return { lineCents, unit, draws: tail.draws, tailTotal, distinct, drawsWon, perCopy };
}

/** The k-subset count tables of the draws on one side of the line, counted on the scan workers. */
async function drawTables(
  totals: Float64Array,
  pool: number,
  line: number,
  above: boolean,
  sideCount: number,
  input: ExposureInput,
): Promise<CountTables> {
  const draws = drawsOnSide(totals, pool, line, above, sideCount);
  const threads = Math.max(1, Math.floor(input.workers ?? os.availableParallelism()));
  const workers = threads > 1 ? takeWorkers(threads) : [];
  // the tables are this call's own: not leased from the analysis pool (they outlive no call)
  const buffers = new SharedBufferLease(null);
  let clean = false;
  try {
    const plan = workers.length > 0 ? buildOnWorkers(workers, input.signal) : INLINE_BUILD;
    const tables = await countTables(draws, sideCount, pool, plan, buffers);
    clean = true;
    return tables;
  } finally {
    releaseWorkers(workers, clean);
  }
}

/** One ranked combination or customer, amounts in currency. */
export interface ExposureRow {
  combo?: string;
  customerId?: string;
  name?: string;
  tickets: number;
  drawsWon?: number;
  tailPayout: number;
  share: number;
}

export interface ExposureRanking {
  draws: number;
  /** Σ of the totals above the line, in currency. */
  tailTotal: number;
  /** Items with a payout above the line. */
  ranked: number;
  /** The first `limit` of them (all when `limit` is absent), largest payout first, ties by key. */
  rows: ExposureRow[];
}

const money = (units: number, unit: number) => (units * unit) / 100;

/** The combinations ranked by their payouts above the line. */
export function rankCombinations(e: CombinationExposure, limit?: number): ExposureRanking {
  const { distinct, perCopy, unit } = e;
  const n = distinct.ranks.length;
  const payout = (k: number) => perCopy[k]! * distinct.copies[k]!;
  const comboOf = (k: number) => formatCombo(distinct.numbers.subarray(k * PICK, k * PICK + PICK));
  // ties by the combination's numbers, compared as numbers (rank order is colex, not that)
  const order = byPayoutThenKey(payout, (k) => lexKey(distinct.numbers, k));
  let ranked = 0;
  for (let k = 0; k < n; k++) if (payout(k) > 0) ranked++;
  const indexes =
    limit === undefined
      ? Array.from({ length: n }, (_, k) => k)
          .filter((k) => payout(k) > 0)
          .sort(order)
      : topIndexes(n, payout, order, limit);
  return {
    draws: e.draws,
    tailTotal: money(e.tailTotal, unit),
    ranked,
    rows: indexes.map((k) => ({
      combo: comboOf(k),
      tickets: distinct.copies[k]!,
      drawsWon: e.drawsWon[k]!,
      tailPayout: money(payout(k), unit),
      share: e.tailTotal > 0 ? payout(k) / e.tailTotal : 0,
    })),
  };
}

/** A combination's numbers as one sortable text of two-digit numbers ("03-08-…"). */
function lexKey(numbers: Uint8Array, k: number): string {
  let key = '';
  for (let i = 0; i < PICK; i++) key += String(numbers[k * PICK + i]!).padStart(2, '0');
  return key;
}

/**
 * The customers ranked by their tickets' payouts above the line: `rows` yields each ticket's customer
 * id and name in ticket (file) order. Tickets without an id are one customer, id "".
 */
export async function rankCustomers(
  e: CombinationExposure,
  rows: AsyncIterable<{ id: string; name: string | null }>,
  limit?: number,
): Promise<ExposureRanking> {
  const byId = new Map<string, { tickets: number; units: number; name: string | null }>();
  let t = 0;
  for await (const { id, name } of rows) {
    const k = e.distinct.of[t++]!;
    const entry = byId.get(id);
    if (entry) {
      entry.tickets++;
      entry.units += e.perCopy[k]!;
      entry.name ||= name;
    } else byId.set(id, { tickets: 1, units: e.perCopy[k]!, name });
  }
  const entries = [...byId.entries()];
  const payout = (i: number) => entries[i]![1].units;
  const order = byPayoutThenKey(payout, (i) => entries[i]![0]);
  const ranked = entries.filter(([, v]) => v.units > 0).length;
  const indexes =
    limit === undefined
      ? entries
          .map((_, i) => i)
          .filter((i) => payout(i) > 0)
          .sort(order)
      : topIndexes(entries.length, payout, order, limit);
  return {
    draws: e.draws,
    tailTotal: money(e.tailTotal, e.unit),
    ranked,
    rows: indexes.map((i) => {
      const [customerId, v] = entries[i]!;
      return {
        customerId,
        ...(v.name ? { name: v.name } : {}),
        tickets: v.tickets,
        tailPayout: money(v.units, e.unit),
        share: e.tailTotal > 0 ? v.units / e.tailTotal : 0,
      };
    }),
  };
}
