import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { EngineError, invariant, throwIfAborted } from '../core/errors';
import {
  type Budget,
  type Payouts,
  BINOM,
  drawCount,
  numbersOfRank,
  PICK,
  validateBudget,
  validatePayouts,
  validatePool,
  type WinnerCounts,
} from '../core/model';
import {
  coarsen,
  compareTopDraws,
  HIST_BINS,
  scanTops,
  countWidth,
  type ScanChunk,
  type ScanParams,
  type ScanStats,
  type TopDraw,
} from '../core/scan';
import { addTierTables, countTables, foldTables, INLINE_BUILD, splitTops } from '../core/tables';
import { estimateQualifyingShare, winnersFromTables } from '../core/table-lookups';
import type { BuildPlan, CountedTickets, CountTables, Tables } from '../core/table-types';
import { SharedBufferLease, tableBufferPool } from '../core/shared-buffers';
import { groupDistribution, type DistributionIndex, type ScannedPart } from './distribution';
import type { GroupedColumn } from '../core/distribution-group';
import type { QualifyingTable } from '../core/draw-query';
import { deriveWeights, unitsToAmount, type Weights } from '../core/weights';
import { EXACT_TOTALS_MAX, mergeExact, totalsBound } from './exact-totals';
import { buildOnWorkers, releaseWorkers, scanOnWorkers, takeWorkers } from '../parallel/workers';

export { closeScanWorkers, prestartScanWorkers, startScanWorker } from '../parallel/workers';

export type AnalysisPhase = 'building' | 'scanning';

export interface AnalyzeOptions {
  pool: number;
  payouts: Payouts;
  budget: Budget;
  /** Worker threads for the scan; default `os.availableParallelism()`; 1 = in this thread. */
  workers?: number;
  signal?: AbortSignal;
  /** `fraction` 0..1 of the whole analysis (build ≈ first half, scan the rest). */
  onProgress?: (p: { phase: AnalysisPhase; fraction: number; drawsEvaluated: number }) => void;
  /** Number of histogram bins wanted (default 50; the result has at most this many). */
  histogramBins?: number;
  /**
   * Per-tier counting of qualifying draws: `sparse` (prefix lookups, no extra tables), `dense` (extra
   * per-tier tables, ~100 MB at P=45, much faster when many draws qualify), or `auto` (default: dense
   * when a 256-draw sample says more than 4% qualify).
   */
  countMode?: 'auto' | 'sparse' | 'dense';
  /** Keep the worker threads for the next analysis (default true; they are unref'd while idle). */
  reuseWorkers?: boolean;
  /**
   * Takes the draws grouped by bin (`distribution.bin`'s content, see `groupDistribution`) piece by
   * piece, in order, grouped on the workers after the scan; each piece is handed over once the write
   * of the previous one has settled. Unset: they are not grouped (the index's sums are still made).
   */
  onDistributionPiece?: (piece: GroupedColumn) => Promise<void>;
  /**
   * The count tables of an earlier analysis of the same tickets and pool (they do not depend on payouts
   * or budget), read into arrays that `take` hands out (this analysis' shared buffers); null when none
   * fits, and they are counted from the tickets.
   */
  loadCounts?: (take: (length: number) => Uint32Array) => Promise<CountTables | null>;
  /**
   * The tickets' 6-subsets and ranks counted while the file was read (`TicketFile.counted`, same
   * tickets and pool): the count tables then start from them instead of walking the tickets again.
   */
  counted?: CountedTickets;
  /**
   * Handed the count tables once counted here (not when loaded), to store them; the analysis settles
   * only after the promise has (the tables' buffers go to the next analysis afterwards).
   */
  onCounts?: (counts: CountTables) => Promise<void>;
  /** Handed the qualifying draws as soon as the scan ends (while the distribution is grouped). */
  onScanned?: (table: QualifyingTable) => void;
  /**
   * Keep every qualifying draw with its winners (`table`, default true). False when only their number
   * and the best `topDraws` are needed (the CLI): the scan then records nothing per draw and builds no
   * per-tier tables, and `table` is empty.
   */
  keepDraws?: boolean;
  /**
   * How many of the best qualifying draws (highest total, ties by combo ascending: `queryDraws`'s
   * first page) the workers keep while they scan, for `top` (default 0).
   */
  topDraws?: number;
  /**
   * Make the distribution index's exact per-bin sums (default true; budget insight needs them). False
   * when only quantiles are asked (the CLI): the workers' pass over every draw is skipped, unless
   * `onDistributionPiece` is set, and the index's `sumHigh` / `sumLow` are empty.
   */
  sumDistribution?: boolean;
  /**
   * Count the draws per total (`distribution.exact`) instead of keeping every draw's total, when
   * nothing else needs the totals (`sumDistribution` false, no `onDistributionPiece`) and their bound
   * allows (at most `EXACT_TOTALS_MAX` units, `exact-totals.ts`): enough for quantiles (the CLI), with no 8 bytes per
   * draw written and no pass over them after. Otherwise the totals are kept as usual.
   */
  exactTotals?: boolean;
}

/** One of the best qualifying draws (`AnalyzeOptions.topDraws`), winners from the count tables. */
export interface TopDrawRow {
  numbers: number[];
  winners: WinnerCounts;
  /** In units (see `Weights.unit`). */
  total: number;
}

export interface AnalysisResult {
  pool: number;
  tickets: number;
  draws: number;
  qualified: number;
  weights: Weights;
  /** Over ALL draws, in currency units. */
  stats: {
    min: number;
    mean: number;
    max: number;
    worstRank: number;
    /** Winners of the worst draw per match type, index 3..7 (0..2 unused, 0). */
    worstWinners: number[];
    histogram: { edges: number[]; counts: number[] };
    /** The same exact counts in up to CURVE_BINS finer bins, for the budget curve. */
    curve: { edges: number[]; counts: number[] };
  };
  table: QualifyingTable;
  /**
   * The exact distribution of every draw's total: the totals by draw rank (`distribution.ts`), 8
   * bytes a draw, and the per-bin index. Draws with a 7-match winner: one per distinct ticket.
   * `exact`: the draws per total in units instead, when counted (`AnalyzeOptions.exactTotals`);
   * `totals` is then empty.
   */
  distribution: { index: DistributionIndex; totals: Float64Array; exact?: Uint32Array };
  jackpotDraws: number;
  /** The best `topDraws` qualifying draws, best first. */
  top: TopDrawRow[];
  timings: {
    buildMs: number;
    scanMs: number;
    totalMs: number;
    workers: number;
    /** The count tables started from `AnalyzeOptions.counted`. */
    countedWhileRead: boolean;
  };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Exhaustive exact analysis of every C(pool, 7) draw for the given tickets (7 ascending 1-based
 * numbers per ticket, `count` tickets). Builds the count tables and the payout-folded zeta transform in
 * this thread, then scans the draws split by largest number over `workers` threads (workers started
 * first, so their start overlaps the build). Cost ≈ O(T + C(P,6)·6 + C(P,7)·7); at P=45 / 1M tickets
 * ≈ 1.5 s on 2 cores and < 0.5 GB plus ~16 B per qualifying draw.
 */
export async function analyzeTickets(
  tickets: Uint8Array,
  count: number,
  opts: AnalyzeOptions,
): Promise<AnalysisResult> {
  const t0 = performance.now();
  const pool = validatePool(opts.pool);
  const payouts = validatePayouts(opts.payouts);
  const budget = validateBudget(opts.budget);
  const nWorkers = Math.max(1, Math.floor(opts.workers ?? os.availableParallelism()));
  if (count < 1) throw new EngineError('NO_VALID_ROWS', 'There are no tickets to analyse.');
  const weights = deriveWeights(payouts, budget, count);
  const { signal, onProgress } = opts;
  throwIfAborted(signal);

  const workers = nWorkers > 1 ? takeWorkers(nWorkers) : [];
  const buffers = new SharedBufferLease(tableBufferPool);
  let clean = false;
  let storing: Promise<void> | undefined;
  try {
    onProgress?.({ phase: 'building', fraction: 0, drawsEvaluated: 0 });
    await yieldToLoop();
    const plan = workers.length > 0 ? buildOnWorkers(workers, signal) : INLINE_BUILD;
    const loaded = await opts.loadCounts?.((length) => buffers.u32(length, false));
    const counts = loaded ?? (await countTables(tickets, count, pool, plan, buffers, opts.counted));
    // written while the scan runs; awaited before the buffers are handed on
    storing = loaded ? undefined : opts.onCounts?.(counts);
    storing?.catch(() => {});
    const tables = await foldTables(counts, weights, plan, buffers);
    throwIfAborted(signal);
    const keepDraws = opts.keepDraws !== false;
    if (wantsTierTables(tables, weights, opts)) await addTierTables(tables, plan, buffers);
    const tBuilt = performance.now();
    throwIfAborted(signal);
    const totalDraws = drawCount(pool);
    const buildShare = 0.4;
    onProgress?.({ phase: 'scanning', fraction: buildShare, drawsEvaluated: 0 });
    throwIfAborted(signal);

    const params = scanParamsOf(pool, tables, weights, totalDraws, keepDraws, opts);
    const split = splitTops(pool, Math.max(1, workers.length));
    const { chunks, statsList } = await scanDraws(workers, tables, params, split, signal, (done) =>
      onProgress?.({
        phase: 'scanning',
        fraction: buildShare + ((1 - buildShare) * done) / totalDraws,
        drawsEvaluated: done,
      }),
    );
    const tScanned = performance.now();
    chunks.sort((x, y) => x.g - y.g || x.seq - y.seq);
    const table: QualifyingTable = {
      length: chunks.reduce((s, c) => s + c.length, 0),
      chunks: chunks.map((c) => ({ length: c.length, ranks: c.ranks, counts: c.counts })),
    };
    opts.onScanned?.(table);
    const { fine, ...stats } = mergeStats(
      statsList,
      weights,
      opts.histogramBins ?? 50,
      pool,
      count,
    );
    // each worker groups the draws it scanned; in this thread, one part of all of them
    const parts: ScannedPart[] =
      workers.length === 0
        ? [{ tops: split[0]!, hist: fine.counts }]
        : split.map((tops, i) => ({ tops, hist: statsList[i]!.hist }));
    const grouping = groupTotals(params.totals, fine, parts, plan, opts);
    // the worst draw's winners from the count tables (~100 lookups, not a pass over the tickets)
    const worstWinners = [0, 0, 0, ...winnersFromTables(tables, numbersOfRank(stats.worstRank))];
    const sums = await grouping;
    await storing;
    clean = true;
    return {
      pool,
      tickets: count,
      draws: totalDraws,
      qualified: statsList.reduce((n, st) => n + st.qualified, 0),
      weights,
      stats: { ...stats, worstWinners },
      table,
      distribution: {
        index: {
          draws: totalDraws,
          shift: fine.shift,
          unit: weights.unit,
          counts: fine.counts,
          ...sums,
        },
        totals: params.totals,
        ...(params.exactUpTo ? { exact: mergeExact(statsList) } : {}),
      },
      jackpotDraws: tables.ticketRanks.length,
      top: topRows(statsList, params.top, tables, weights),
      timings: {
        buildMs: tBuilt - t0,
        scanMs: tScanned - tBuilt,
        totalMs: performance.now() - t0,
        workers: nWorkers,
        countedWhileRead: !loaded && opts.counted !== undefined,
      },
    };
  } finally {
    // no write of the count tables is left running (the caller closes its file next)
    await storing?.catch(() => {});
    releaseWorkers(workers, clean && opts.reuseWorkers !== false);
    // only after a clean finish is no worker writing to the tables any more
    if (clean) buffers.release();
  }
}

/**
 * Whether to add the per-tier tables (`addTierTables`): only when draws are recorded (they count each
 * recorded draw's winners), and in 'auto' mode when more than 4 % of the draws are estimated to qualify.
 */
function wantsTierTables(tables: Tables, weights: Weights, opts: AnalyzeOptions): boolean {
  const mode = opts.countMode ?? 'auto';
  return (
    opts.keepDraws !== false &&
    (mode === 'dense' ||
      (mode === 'auto' &&
        estimateQualifyingShare(tables, weights.alpha[7]!, weights.lo, weights.hi) > 0.04))
  );
}

/** What the scan needs besides the tables: the weights, the bounds, the counts' widths, every total's slot. */
function scanParamsOf(
  pool: number,
  tables: Tables,
  weights: Weights,
  totalDraws: number,
  keepDraws: boolean,
  opts: AnalyzeOptions,
): ScanParams {
  // winners of match type m ≤ C(7,m)·max c_m: each column as narrow as that bound allows
  const widths = [3, 4, 5, 6, 7].map((m) => countWidth(BINOM[7]![m]! * tables.maxCount[m]!));
  const bound = totalsBound(tables, weights);
  // counted per total only when nothing else reads the totals (the index's sums, the grouped pieces)
  const exact =
    opts.exactTotals === true &&
    opts.sumDistribution === false &&
    !opts.onDistributionPiece &&
    bound <= EXACT_TOTALS_MAX;
  return {
    pool,
    w: Array.from(weights.w),
    alpha7: weights.alpha[7]!,
    lo: weights.lo,
    hi: weights.hi,
    widths,
    // every draw's total (not from the pool: it outlives this call, until written to disk)
    totals: new Float64Array(new SharedArrayBuffer(exact ? 0 : totalDraws * 8)),
    ...(exact ? { exactUpTo: Math.max(1, bound) } : {}),
    record: keepDraws,
    top: Math.max(0, Math.floor(opts.topDraws ?? 0)),
  };
}

/**
 * Scans every draw: in this thread one top number at a time (the event loop turns between them), else
 * on the workers, one list of top numbers each (`split`). `onDone`: the draws scanned so far.
 */
async function scanDraws(
  workers: Worker[],
  tables: Tables,
  params: ScanParams,
  split: number[][],
  signal: AbortSignal | undefined,
  onDone: (done: number) => void,
): Promise<{ chunks: ScanChunk[]; statsList: ScanStats[] }> {
  const chunks: ScanChunk[] = [];
  let statsList: ScanStats[];
  if (workers.length === 0) {
    statsList = [];
    let done = 0;
    // one count per total for every call
    const exactInto = params.exactUpTo ? new Uint32Array(params.exactUpTo + 1) : undefined;
    for (const g of split[0]!) {
      throwIfAborted(signal);
      const st = scanTops(
        tables,
        params,
        [g],
        { chunk: (c) => chunks.push(c), progress: () => undefined },
        exactInto,
      );
      statsList.push(st);
      done += st.draws;
      onDone(done);
      await yieldToLoop();
    }
  } else {
    statsList = await scanOnWorkers(workers, tables, params, split, {
      signal,
      onChunk: (c) => chunks.push(c),
      onDraws: onDone,
    });
  }
  return { chunks, statsList };
}

/**
 * Every draw's total grouped by bin and summed (`groupDistribution`), on the plan's threads; nothing
 * (empty sums) when neither the sums nor the grouped pieces are wanted.
 */
function groupTotals(
  totals: Float64Array,
  fine: { counts: Float64Array; shift: number },
  parts: ScannedPart[],
  plan: BuildPlan,
  opts: AnalyzeOptions,
): Promise<{ sumHigh: Float64Array; sumLow: Float64Array }> {
  return opts.sumDistribution === false && !opts.onDistributionPiece
    ? Promise.resolve({ sumHigh: new Float64Array(0), sumLow: new Float64Array(0) })
    : groupDistribution(totals, fine.counts, fine.shift, parts, plan, opts.onDistributionPiece);
}

/** The best `top` draws of all the scans' lists, best first, with their winners. */
function topRows(
  statsList: ScanStats[],
  top: number,
  tables: Tables,
  weights: Weights,
): TopDrawRow[] {
  return statsList
    .flatMap((st) => st.top)
    .sort(compareTopDraws)
    .slice(0, top)
    .map((d) => topDrawRow(tables, weights, d));
}

/** A kept draw with its winners per match type, counted from the tables (`winnersFromTables`). */
function topDrawRow(tables: Tables, weights: Weights, d: TopDraw): TopDrawRow {
  const numbers = numbersOfRank(d.rank);
  const e = winnersFromTables(tables, numbers);
  let total = 0;
  for (let m = 3; m <= PICK; m++) total += weights.w[m]! * e[m - 3]!;
  invariant(total === d.total, 'winners disagree with the scanned total');
  return { numbers, winners: { 3: e[0]!, 4: e[1]!, 5: e[2]!, 6: e[3]!, 7: e[4]! }, total };
}

/**
 * The exact sum of the totals of all C(P,7) draws, in units: each ticket matches exactly m numbers of
 * C(7,m)·C(P−7,7−m) draws, whatever its numbers, so Σ_D total(D) = T·Σ_m w_m·C(7,m)·C(P−7,7−m).
 */
function sumOfAllTotals(pool: number, tickets: number, weights: Weights): bigint {
  let perTicket = 0n;
  for (let m = 3; m <= PICK; m++) {
    perTicket +=
      BigInt(weights.w[m]!) * BigInt(BINOM[PICK]![m]!) * BigInt(BINOM[pool - PICK]![PICK - m]!);
  }
  return perTicket * BigInt(tickets);
}

/** Bins of the budget curve: fine enough to read a budget's coverage closely, small enough to send. */
export const CURVE_BINS = 512;

/** Merges per-worker stats into currency-unit statistics with an exact histogram of ≤ `bins` bins. */
function mergeStats(
  list: ScanStats[],
  weights: Weights,
  bins: number,
  pool: number,
  tickets: number,
): Omit<AnalysisResult['stats'], 'worstWinners'> & {
  fine: { counts: Float64Array; shift: number };
} {
  let min = Infinity;
  let max = -Infinity;
  let worstRank = -1;
  let worstLex = Infinity;
  let draws = 0;
  let shift = 0;
  for (const s of list) {
    if (s.draws === 0) continue;
    draws += s.draws;
    if (s.min < min) min = s.min;
    if (s.max > max || (s.max === max && s.worstLex < worstLex)) {
      max = s.max;
      worstRank = s.worstRank;
      worstLex = s.worstLex;
    }
    if (s.shift > shift) shift = s.shift;
  }
  const hist = new Float64Array(HIST_BINS);
  const width = 2 ** shift;
  const first = Math.floor(min / width);
  const last = Math.floor(max / width);
  for (const s of list) {
    if (s.draws === 0) continue;
    coarsen(s.hist, s.shift, shift);
    // every total lies in [min, max]: the bins outside are empty
    for (let i = first; i <= last; i++) hist[i] = hist[i]! + s.hist[i]!;
  }
  /** The fine histogram grouped into at most `wanted` bins of whole fine bins (still exact). */
  const grouped = (wanted: number) => {
    const n = last - first + 1;
    const group = Math.ceil(n / wanted);
    const k = Math.ceil(n / group);
    const edges: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i <= k; i++) {
      edges.push(unitsToAmount((first + i * group) * width, weights.unit));
    }
    for (let i = 0; i < k; i++) {
      let c = 0;
      for (let j = first + i * group; j < Math.min(first + (i + 1) * group, HIST_BINS); j++)
        c += hist[j]!;
      counts.push(c);
    }
    return { edges, counts };
  };
  return {
    min: unitsToAmount(min, weights.unit),
    mean: unitsToAmount(Number(sumOfAllTotals(pool, tickets, weights)) / draws, weights.unit),
    max: unitsToAmount(max, weights.unit),
    worstRank,
    histogram: grouped(bins),
    curve: grouped(CURVE_BINS),
    fine: { counts: hist, shift },
  };
}
