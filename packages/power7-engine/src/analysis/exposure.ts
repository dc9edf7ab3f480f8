import { EngineError, throwIfAborted } from '../core/errors';
import {
  byPayoutThenKey,
  countDraws,
  distinctTickets,
  drawsOfRanks,
  drawsOnSide,
  ensureExactTail,
  foldTwice,
  markDraws,
  matchesOfAllDraws,
  tailAbove,
  tailIndex,
  tailOf,
  topIndexes,
  type DistinctTickets,
  type TailIndex,
} from '../core/exposure';
import { type Budget, formatCombo, numbersOfRank, type Payouts, PICK } from '../core/model';
import { type SharedBufferLease, SharedBufferPool } from '../core/shared-buffers';
import { deriveWeights, unitsToAmount, type Weights } from '../core/weights';
import type { BuildPlan } from '../core/table-types';
import { withBuildPlan } from '../parallel/workers';
import type { FoldedDraws, MatchesOp, SubsetCounts } from '../core/matches';
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
  /** Minor units per unit. */
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

/**
 * What every line's exposure (and every liability limit) starts from, whatever the line: every draw's
 * total from one analysis of the tickets (the session's stored count tables make it a warm one), the
 * worst draw, and the distinct combinations. An open session keeps it (`store/session-open.ts`).
 */
export interface ExposureBase {
  totals: Float64Array;
  /** Minor units per unit, and the payout per match type in units. */
  unit: number;
  w: Float64Array;
  worst: { combo: string; totalPayout: number };
  distinct: DistinctTickets;
}

/** Every draw's total with every ticket (units) from one warm analysis, and the worst draw. */
export async function everyDrawTotal(
  input: ExposureInput,
): Promise<Omit<ExposureBase, 'distinct'>> {
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
  return {
    totals: res.distribution.totals,
    unit: res.weights.unit,
    w: res.weights.w,
    worst: { combo: formatCombo(numbersOfRank(res.stats.worstRank)), totalPayout: res.stats.max },
  };
}

export async function exposureBase(input: ExposureInput): Promise<ExposureBase> {
  return {
    ...(await everyDrawTotal(input)),
    distinct: distinctTickets(input.tickets, input.count),
  };
}

/**
 * The exposure of each distinct combination above `lineCents`: the draws on the smaller side of the
 * line counted as tickets and their tables folded with the payouts (`core/exposure.ts`), then 7
 * pairs of loads per combination (`FoldedDraws`); ~100 table lookups each instead when the fold
 * would not stay exact. Exact for any line; the cost is the draws' tables and one pass over the
 * combinations, plus the base's one analysis when it is not given.
 */
export async function combinationExposure(
  input: ExposureInput,
  lineCents: number,
  given?: ExposureBase,
): Promise<CombinationExposure> {
  const { pool, signal } = input;
  const base = given ?? (await exposureBase(input));
  const { unit, distinct } = base;
  const line = Math.floor(lineCents / unit);
  const side = sideOf(base, line, pool);
  const tailTotal = ensureExactTail(side.total);
  const n = distinct.ranks.length;
  const shared = (length: number) =>
    new Float64Array(new SharedArrayBuffer(Math.max(8, length * 8)));
  const drawsWon = shared(n);
  const perCopy = shared(n);
  await withBuildPlan(input.workers, exposureBuffers, signal, async (plan, buffers) => {
    // the draws on the counted side as tickets, their subset counts made on the workers
    const tables =
      side.count > 0 ? await countDraws(side.tickets, side.count, pool, plan, buffers) : null;
    throwIfAborted(signal);
    const folded = tables && (await foldedDraws(input, base, tables, side.count, plan, buffers));
    throwIfAborted(signal);
    // then each combination's matches with them, the combinations split over the workers
    const pieces = Math.max(1, plan.parts) * 4;
    const ops: MatchesOp[] = Array.from({ length: pieces }, (_, i) => ({
      op: 'matches',
      tables: folded
        ? null
        : tables && { c3: tables.c3, c4: tables.c4, c5: tables.c5, c6: tables.c6 },
      folded,
      numbers: distinct.numbers,
      onSide: side.onSide,
      from: Math.floor((n * i) / pieces),
      to: Math.floor((n * (i + 1)) / pieces),
      above: side.above,
      w: Array.from(base.w),
      all: Array.from(matchesOfAllDraws(pool)),
      drawsWon,
      perCopy,
    }));
    await plan.run(ops);
  });
  throwIfAborted(signal);
  return { unit, draws: side.draws, tailTotal, distinct, drawsWon, perCopy };
}

/** The tables and scratch of exposure questions, reused from one question to the next. */
const exposureBuffers = new SharedBufferPool();

/**
 * Per base, the draws near the top of its totals (`tailIndex`), made on the base's second question:
 * a base made for one question only (not kept by its session) never pays for it.
 */
const tailIndexes = new WeakMap<ExposureBase, TailIndex | null | 'once'>();

function keptTail(base: ExposureBase): TailIndex | null {
  const index = tailIndexes.get(base);
  if (index === undefined) {
    tailIndexes.set(base, 'once');
    return null;
  }
  if (index !== 'once') return index;
  const made = tailIndex(base.totals);
  tailIndexes.set(base, made);
  return made;
}

/**
 * The draws above the line (count and exact sum), and the side of the line that is counted — the
 * smaller — as 7-byte tickets, with each distinct combination's own draw marked when on that side.
 * A line high enough (≤ ~3 % of the draws above it) takes its draws from the base's `TailIndex`;
 * others, and a base's first question, walk every draw's total.
 */
function sideOf(base: ExposureBase, line: number, pool: number) {
  const { totals, distinct } = base;
  const index = keptTail(base);
  const n = distinct.ranks.length;
  const onSide = new Uint8Array(new SharedArrayBuffer(Math.max(1, n)));
  if (index && line >= index.floor) {
    const tail = tailAbove(index, line);
    if (tail.draws <= totals.length / 2) {
      markDraws(distinct.ranks, tail.ranks, onSide);
      const tickets = drawsOfRanks(tail.ranks, pool);
      return { ...tail, above: true, count: tail.draws, tickets, onSide };
    }
  }
  const tail = tailOf(totals, line);
  // the smaller side is counted: the other follows from the whole game's counts
  const above = tail.draws <= totals.length / 2;
  const count = above ? tail.draws : totals.length - tail.draws;
  for (let k = 0; k < n; k++) onSide[k] = totals[distinct.ranks[k]!]! > line === above ? 1 : 0;
  const tickets = count > 0 ? drawsOnSide(totals, pool, line, above, count) : new Uint8Array(0);
  return { draws: tail.draws, total: tail.total, above, count, tickets, onSide };
}

/**
 * The counted draws' tables folded with the payouts and with the wins (`FoldedDraws`), or null when
 * the fold of `count` draws could overflow float64's exact integers (`deriveWeights` says so): then
 * the matches are looked up instead.
 */
async function foldedDraws(
  input: ExposureInput,
  base: ExposureBase,
  tables: SubsetCounts & { pool: number },
  count: number,
  plan: BuildPlan,
  buffers: SharedBufferLease,
): Promise<FoldedDraws | null> {
  let pay: Weights;
  try {
    pay = deriveWeights(input.payouts, input.budget, count);
  } catch (error) {
    if (error instanceof EngineError && error.code === 'PAYOUT_TOO_LARGE') return null;
    throw error;
  }
  const won = deriveWeights(WIN_EACH, { type: 'fixed', budget: 0 }, count);
  const all = matchesOfAllDraws(input.pool);
  let allPay = 0;
  let allWon = 0;
  for (let j = 3; j <= PICK; j++) {
    allPay += all[j]! * base.w[j]!;
    allWon += all[j]!;
  }
  return {
    y: await foldTwice(tables, [pay.beta, won.beta], plan, buffers),
    alpha7Pay: pay.alpha[7]!,
    alpha7Won: won.alpha[7]!,
    allPay,
    allWon,
  };
}

/** Payouts of 1 for every winning match type: the fold that counts draws won. */
const WIN_EACH: Payouts = { 3: 1, 4: 1, 5: 1, 6: 1, 7: 1 };

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

/**
 * The items with a positive payout, counted, and the first `limit` of them in `order` (all, sorted,
 * without a limit: the CSV).
 */
function ranking(
  pays: Float64Array,
  order: (a: number, b: number) => number,
  limit: number | undefined,
): { ranked: number; indexes: number[] } {
  let ranked = 0;
  for (let i = 0; i < pays.length; i++) if (pays[i]! > 0) ranked++;
  const indexes =
    limit === undefined
      ? Array.from({ length: pays.length }, (_, i) => i)
          .filter((i) => pays[i]! > 0)
          .sort(order)
      : topIndexes(pays, order, limit);
  return { ranked, indexes };
}

/** The combinations ranked by their payouts above the line. */
export function rankCombinations(e: CombinationExposure, limit?: number): ExposureRanking {
  const { distinct, perCopy, unit } = e;
  const pays = scratch(distinct, distinct.ranks.length);
  for (let k = 0; k < pays.length; k++) pays[k] = perCopy[k]! * distinct.copies[k]!;
  const comboOf = (k: number) => formatCombo(distinct.numbers.subarray(k * PICK, k * PICK + PICK));
  // ties by the combination's numbers, compared as numbers (rank order is colex, not that)
  const order = byPayoutThenKey(pays, (k) => lexKey(distinct.numbers, k));
  const { ranked, indexes } = ranking(pays, order, limit);
  return {
    draws: e.draws,
    tailTotal: unitsToAmount(e.tailTotal, unit),
    ranked,
    rows: indexes.map((k) => ({
      combo: comboOf(k),
      tickets: distinct.copies[k]!,
      drawsWon: e.drawsWon[k]!,
      tailPayout: unitsToAmount(pays[k]!, unit),
      share: e.tailTotal > 0 ? pays[k]! / e.tailTotal : 0,
    })),
  };
}

/**
 * One array of payouts per item list, reused by every ranking of it (a ranking runs to its end in one
 * turn, so no two use it at once): ~8 MB fewer new bytes per question for the collector to follow.
 */
const scratches = new WeakMap<object, Float64Array>();

function scratch(owner: object, length: number): Float64Array {
  let made = scratches.get(owner);
  if (!made || made.length !== length) scratches.set(owner, (made = new Float64Array(length)));
  return made;
}

/** A combination's numbers as one sortable text of two-digit numbers ("03-08-…"). */
function lexKey(numbers: Uint8Array, k: number): string {
  let key = '';
  for (let i = 0; i < PICK; i++) key += String(numbers[k * PICK + i]!).padStart(2, '0');
  return key;
}

/** Every ticket's customer (the file's id column), read once per open session: line-independent. */
export interface CustomerIndex {
  ids: string[];
  /** The first name given for each customer, or null. */
  names: (string | null)[];
  /** Per ticket in file order, its customer's index in `ids`. */
  of: Uint32Array;
  /** Tickets per customer. */
  tickets: Uint32Array;
}

/** The customer index of the rows' id and name columns, in ticket order; tickets without an id are "". */
export async function customerIndex(
  rows: AsyncIterable<{ id: string; name: string | null }[]>,
  count: number,
): Promise<CustomerIndex> {
  const at = new Map<string, number>();
  const ids: string[] = [];
  const names: (string | null)[] = [];
  const of = new Uint32Array(count);
  let t = 0;
  for await (const batch of rows) {
    for (const { id, name } of batch) {
      let k = at.get(id);
      if (k === undefined) {
        k = ids.length;
        at.set(id, k);
        ids.push(id);
        names.push(name || null);
      } else if (!names[k] && name) names[k] = name;
      of[t++] = k;
    }
  }
  const tickets = new Uint32Array(ids.length);
  for (let i = 0; i < t; i++) tickets[of[i]!]!++;
  return { ids, names, of, tickets };
}

/**
 * The customers ranked by their tickets' payouts above the line: one pass over the tickets adding
 * each one's combination payout to its customer, then the first `limit` (all, sorted, without it).
 */
export function rankCustomers(
  e: CombinationExposure,
  customers: CustomerIndex,
  limit?: number,
): ExposureRanking {
  const units = scratch(customers, customers.ids.length).fill(0);
  const { of } = customers;
  const { perCopy } = e;
  const comboOf = e.distinct.of;
  for (let t = 0; t < of.length; t++) {
    const c = of[t]!;
    units[c] = units[c]! + perCopy[comboOf[t]!]!;
  }
  const order = byPayoutThenKey(units, (i) => customers.ids[i]!);
  const { ranked, indexes } = ranking(units, order, limit);
  return {
    draws: e.draws,
    tailTotal: unitsToAmount(e.tailTotal, e.unit),
    ranked,
    rows: indexes.map((i) => {
      const name = customers.names[i];
      return {
        customerId: customers.ids[i]!,
        ...(name ? { name } : {}),
        tickets: customers.tickets[i]!,
        tailPayout: unitsToAmount(units[i]!, e.unit),
        share: e.tailTotal > 0 ? units[i]! / e.tailTotal : 0,
      };
    }),
  };
}
