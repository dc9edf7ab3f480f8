import {
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  QUANTILE_KEYS,
} from '@pa/contracts/power7-limits';
import {
  drawsCsv,
  exportDraws,
  queryDraws,
  type FilterQuery,
  type QueryContext,
} from '../core/draw-query';
import { planQuery, type DrawIndex, type IndexedQuery } from '../core/draw-index';
import {
  answerByWalk,
  answerFromParts,
  answerInOrder,
  countHere,
  needsScan,
  queryIndex,
  sortOrderKey,
  WALK_LIMIT,
  WALK_SLACK,
  walkSteps,
} from '../core/draw-index-answers';
import { scanPart, wordParts } from '../core/draw-index-scan';
import { EngineError } from '../core/errors';
import {
  drawCount,
  formatCombo,
  MATCH_TYPES,
  parseCombo,
  PICK,
  type MatchType,
} from '../core/model';
import { exposureBase, type ExposureBase } from '../analysis/exposure';
import type { CountColumn } from '../core/scan';
import {
  budgetInsight,
  DistributionQuery,
  exceedLimit,
  excessLimit,
  fileBins,
  indexFromColumns,
  quantiles,
  rangeInsight,
  shortfall,
  type BinReader,
  type DistributionIndex,
} from '../analysis/distribution';
import {
  fileIn,
  readAligned,
  readCountTables,
  readJson,
  type StoredAnalysis,
} from './session-files';
import { customerColumns, SessionExposures } from './session-exposure';
import { SessionLiability } from './session-liability';
import type {
  AnalysisSummary,
  FilterAnswer,
  IngestSummary,
  InsightAnswer,
  InsightQuery,
  NoValidRowsSummary,
  OpenSession,
  SessionStatus,
  WinnerRow,
  WinnersPage,
} from './session-types';
import { matchedNumbers, RowReader, ticketMasks } from '../analysis/winners';
import { lookupPays, type WinnerOrder, type WinnersSource } from '../analysis/winners-csv';
import {
  buildDrawIndexOnThreads,
  buildLookupOnThreads,
  buildSortOrderOnThreads,
  findWinnersOnThreads,
  readRowsOnThreads,
  scanIndexOnThreads,
  winnersCsvOnThreads,
} from '../parallel/winners-pool';

/** Winners of recent draws kept per open session (concurrent downloads of one draw walk once). */
const KEPT_WINNER_ORDERS = 8;

/** What a session folder holds, from its small JSON files only. Never throws for a missing folder. */
export async function readSessionStatus(sessionDir: string): Promise<SessionStatus> {
  const ingest = await readJson<IngestSummary>(fileIn(sessionDir, 'ingest'));
  const stored = ingest ? await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis')) : null;
  let analysis: AnalysisSummary | null = null;
  if (stored) {
    const { storage: _s, ...pub } = stored;
    void _s;
    analysis = pub;
  }
  const noValidRows = ingest
    ? null
    : await readJson<NoValidRowsSummary>(fileIn(sessionDir, 'noValidRows'));
  return {
    state: analysis ? 'analysed' : ingest ? 'ingested' : 'missing',
    ingest,
    analysis,
    noValidRows,
  };
}

/** Draws of a filter's run below which its scan runs here (a thread's round trip would cost more). */
const SCAN_HERE_DRAWS = 65_536;

/** Draws up to which an open session keeps every draw's total for exposure and limits (8 B a draw). */
const KEEP_BASE_DRAWS = 40_000_000;

/**
 * Loads a finished session (tickets + qualifying draws) for queries, without re-running anything.
 * Throws SESSION_NOT_FOUND or SESSION_NOT_READY (no finished analysis). Memory ≈ 15 B per ticket
 * + 12–24 B per qualifying draw; load time ≈ reading those files.
 */
export async function openSession(sessionDir: string): Promise<OpenSession> {
  const status = await readSessionStatus(sessionDir);
  if (!status.ingest) throw new EngineError('SESSION_NOT_FOUND', 'No such session.');
  const stored = await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis'));
  if (!stored || !status.analysis) {
    throw new EngineError('SESSION_NOT_READY', 'The analysis of this session has not finished.');
  }
  const ingest = status.ingest;
  const analysis = status.analysis;
  // tickets, masks and row index in shared memory: the winners threads read them without a copy
  const tickets = new Uint8Array(await readAligned(fileIn(sessionDir, 'tickets'), true));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sessionDir, 'rowIndex'), true);
  const offsets = new Float64Array(idx, 0, count);
  const lines = new Uint32Array(idx, count * 8, count);
  const lengths = new Uint32Array(idx, count * 12, count);
  // shared: a winners thread builds the filter index from it without a copy
  const q = await readAligned(fileIn(sessionDir, 'qualifying'), true);
  const n = stored.storage.qualified;
  const ranks = new Uint32Array(q, 0, n);
  let off = n * 4;
  const counts: CountColumn[] = [];
  for (const width of stored.storage.widths) {
    counts.push(
      width === 1
        ? new Uint8Array(q, off, n)
        : width === 2
          ? new Uint16Array(q, off, n)
          : new Uint32Array(q, off, n),
    );
    off += n * width;
    if (off % 4) off += 4 - (off % 4);
  }
  const ctx: QueryContext = {
    pool: ingest.pool,
    table: { length: n, chunks: n ? [{ length: n, ranks, counts }] : [] },
    w: stored.storage.w,
    unit: stored.storage.unit,
  };
  // the filter index (ADR 025), built on a winners thread at the first filter; null: too many draws
  let drawIndex: Promise<DrawIndex | null> | null = null;
  let builtIndex: DrawIndex | null = null;
  const indexOf = () => {
    if (!drawIndex) {
      const made = buildDrawIndexOnThreads(ctx);
      drawIndex = made;
      made.then(
        (index) => void (closed || (builtIndex = index)),
        // a failed build is not kept: the next filter tries again (the scan answers meanwhile)
        () => drawIndex === made && (drawIndex = null),
      );
    }
    return drawIndex;
  };
  const masks = ticketMasks(tickets, count, true);
  const rows = new RowReader(
    fileIn(sessionDir, 'rows'),
    ingest.delimiter.charCodeAt(0),
    offsets,
    lengths,
  );
  const header = ingest.columns;
  const checkMatch = (m: unknown): MatchType => {
    if (!MATCH_TYPES.includes(m as MatchType)) {
      throw new EngineError(
        'INVALID_PARAMS',
        'The match type must be 3, 4, 5, 6 or 7.',
        'matchType',
      );
    }
    return m as MatchType;
  };
  const source: WinnersSource = {
    key: sessionDir,
    tickets,
    masks,
    offsets,
    lengths,
    rowsPath: fileIn(sessionDir, 'rows'),
    delimiter: ingest.delimiter.charCodeAt(0),
    header,
    payouts: analysis.payouts,
    pool: ingest.pool,
  };
  // built once, on a winners thread, when winners it serves are first asked for; walked until then
  let lookupBuilt: Promise<void> | null = null;
  // in flight or found, least recently asked first out: concurrent requests for a draw share a walk
  const orders = new Map<string, Promise<WinnerOrder>>();
  const winnerOrder = (numbers: number[], m: MatchType | 'all'): Promise<WinnerOrder> => {
    const key = `${numbers.join('-')}/${m}`;
    if (lookupPays(source.pool, count, m)) {
      lookupBuilt ??= buildLookupOnThreads(source).then(
        (lookup) => void (closed || (source.lookup = lookup)),
        // a walk finds the same winners: a failed build only costs speed
        () => {},
      );
    }
    let order = orders.get(key);
    if (order) orders.delete(key);
    else {
      order = findWinnersOnThreads(source, numbers, m);
      order.catch(() => orders.get(key) === order && orders.delete(key));
    }
    orders.set(key, order);
    if (orders.size > KEPT_WINNER_ORDERS) orders.delete(orders.keys().next().value!);
    return order;
  };
  /** The CSV bytes, once the combo and match type are checked (they throw at once). */
  const csvBytes = (combo: string, matchType: MatchType | 'all') => {
    ensureOpen();
    const numbers = parseCombo(combo, ingest.pool);
    const m = matchType === 'all' ? 'all' : checkMatch(matchType);
    return (async function* () {
      yield* winnersCsvOnThreads(source, numbers, await winnerOrder(numbers, m));
    })();
  };
  const exposureInput = {
    tickets,
    count,
    pool: ingest.pool,
    payouts: analysis.payouts,
    budget: analysis.budget,
    loadCounts: (take: (length: number) => Uint32Array) =>
      readCountTables(fileIn(sessionDir, 'counts'), ingest.pool, count, take),
  };
  // every draw's total and the distinct combinations: what every exposure line and liability limit
  // starts from, kept while the session is open unless the draws' totals alone pass 320 MB (P ≥ 45)
  let base: Promise<ExposureBase> | null = null;
  const keepBase = drawCount(ingest.pool) <= KEEP_BASE_DRAWS;
  const exposureBaseOf = () => {
    const made = base ?? exposureBase(exposureInput);
    if (keepBase && !base) {
      base = made;
      made.catch(() => base === made && (base = null));
    }
    return made;
  };
  const exposures = new SessionExposures({
    ...exposureInput,
    base: exposureBaseOf,
    customers: () => customerColumns(rows, header, ingest),
  });
  const liability = new SessionLiability(exposureInput, exposureBaseOf, rows, header, lines);
  let distribution: ReturnType<typeof openDistribution> | null = null;
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('session is closed');
  };
  // the sort orders pages are walked in (ADR 025), each made on a winners thread at its first use
  const sortOrders = new Map<number, Promise<Uint32Array>>();
  const sortOrderOf = (index: DrawIndex, key: number) => {
    let order = sortOrders.get(key);
    if (!order) {
      const made = buildSortOrderOnThreads(index, key);
      made.catch(() => sortOrders.get(key) === made && sortOrders.delete(key));
      sortOrders.set(key, made);
      order = made;
    }
    return order;
  };
  /**
   * A planned filter's answer: at once from the index; else its count (bitsets, or a scan on the
   * threads for winners ranges) and, when that is short, a walk of its sort's order; else the
   * threads' scan of the run with their best rows merged.
   */
  const answerPlan = async (index: DrawIndex, plan: IndexedQuery, signal?: AbortSignal) => {
    if (!needsScan(plan)) return answerInOrder(ctx, index, plan);
    if (plan.to - plan.from < SCAN_HERE_DRAWS) {
      const scanned = wordParts(plan, 1).map(([from, to]) =>
        scanPart(index, ctx.w, plan, from, to),
      );
      return answerFromParts(ctx, index, plan, scanned);
    }
    const matched = plan.f.anyWinnerFilter
      ? (await scanIndexOnThreads(index, ctx.w, plan, signal, true)).reduce(
          (sum, part) => sum + part.matched,
          0,
        )
      : countHere(index, ctx.w, plan);
    // a deep page over a long run: a walk of a few hundred thousand positions still costs less than
    // the threads' scan keeping that many rows in order
    const limit = Math.max(WALK_LIMIT, (plan.to - plan.from) / 8);
    if (walkSteps(index, plan, matched) <= limit) {
      const key = sortOrderKey(plan);
      const order = key === -2 ? null : await sortOrderOf(index, key);
      const walked = answerByWalk(ctx, index, plan, matched, order, limit * WALK_SLACK);
      if (walked) return walked;
    }
    return answerFromParts(ctx, index, plan, await scanIndexOnThreads(index, ctx.w, plan, signal));
  };
  const filterHere = (query: FilterQuery): FilterAnswer => {
    ensureOpen();
    const page = builtIndex ? queryIndex(ctx, builtIndex, query) : queryDraws(ctx, query);
    return { ...page, qualified: n, stats: analysis.stats };
  };
  const col = (name: string | null, fields: string[]) =>
    name === null ? null : (fields[header.indexOf(name)] ?? null);

  return {
    ingest,
    analysis,
    filter: filterHere,
    async filterAsync(query: FilterQuery, signal?: AbortSignal): Promise<FilterAnswer> {
      ensureOpen();
      const index = await indexOf().catch(() => null);
      if (!index) return filterHere(query);
      const plan = planQuery(ctx, index, query);
      return { ...(await answerPlan(index, plan, signal)), qualified: n, stats: analysis.stats };
      // no second ensureOpen(): a session evicted meanwhile still answers what it was asked
    },
    async winners(combo, matchType, page = 1, pageSize = 50): Promise<WinnersPage> {
      ensureOpen();
      const numbers = parseCombo(combo, ingest.pool);
      const m = checkMatch(matchType);
      if (!Number.isInteger(page) || page < 1) {
        throw new EngineError('INVALID_PARAMS', 'page must be a whole number ≥ 1.', 'page');
      }
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
        throw new EngineError('INVALID_PARAMS', 'pageSize must be 1..1000.', 'pageSize');
      }
      const { index } = await winnerOrder(numbers, m);
      const slice = index.subarray((page - 1) * pageSize, page * pageSize);
      const items: WinnerRow[] = [];
      let k = 0;
      // read on a winners thread: a page of scattered winners is a read per row
      for (const fields of await readRowsOnThreads(source, slice)) {
        const t = slice[k++]!;
        const columns: Record<string, string> = {};
        header.forEach((h, i) => (columns[h] = fields[i] ?? ''));
        items.push({
          line: lines[t]!,
          customerId: col(ingest.idColumn, fields),
          name: col(ingest.nameColumn, fields),
          phone: col(ingest.phoneColumn, fields),
          numbers: Array.from(tickets.subarray(t * PICK, t * PICK + PICK)),
          matchType: m,
          matched: matchedNumbers(tickets, t, numbers),
          payout: analysis.payouts[m],
          columns,
        });
      }
      return {
        combo: formatCombo(numbers),
        matchType: m,
        items,
        page,
        pageSize,
        total: index.length,
        totalPages: Math.ceil(index.length / pageSize),
      };
    },
    winnersCsv(combo, matchType) {
      const bytes = csvBytes(combo, matchType);
      return (async function* () {
        // chunks end at a row's end: each one is whole UTF-8
        for await (const chunk of bytes)
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
      })();
    },
    winnersCsvBytes: csvBytes,
    drawsCsv(query) {
      ensureOpen();
      // the filters are checked here, before the first chunk (a bad one throws INVALID_PARAMS)
      return drawsCsv(exportDraws(ctx, query));
    },
    async insight(query) {
      ensureOpen();
      distribution ??= openDistribution(sessionDir, stored);
      // a failed open (an old session) is not kept: the next question tries again
      void distribution.catch(() => (distribution = null));
      return answerInsight(await distribution, analysis, query);
    },
    exposure: (query) => {
      ensureOpen();
      return exposures.answer(query);
    },
    exposureCsv: (query) => {
      ensureOpen();
      return exposures.csv(query);
    },
    limit: (limit) => {
      ensureOpen();
      return liability.limit(limit);
    },
    acceptedMask: (limit, mode) => {
      ensureOpen();
      return liability.acceptedMask(limit, mode);
    },
    refusedCsv: (limit) => {
      ensureOpen();
      return liability.refusedCsv(limit);
    },
    cap: (limit) => {
      ensureOpen();
      return liability.cap(limit);
    },
    close() {
      closed = true;
      exposures.clear();
      liability.clear();
      base = null;
      orders.clear();
      delete source.lookup;
      drawIndex = null;
      builtIndex = null;
      sortOrders.clear();
      distribution = null;
    },
  };
}

/** The session's distribution index (1.5 MB), read on its first question. */
async function openDistribution(
  sessionDir: string,
  stored: StoredAnalysis,
): Promise<{ index: DistributionIndex; readBin: BinReader }> {
  const layout = stored.storage.distribution;
  if (!layout) {
    throw new EngineError(
      'SESSION_NOT_READY',
      'This session was analysed before exact insight existed; run it again to ask budget questions.',
    );
  }
  const buffer = await readAligned(fileIn(sessionDir, 'distributionIndex'));
  const index = indexFromColumns(buffer, layout.bins, {
    draws: stored.draws,
    shift: layout.shift,
    unit: stored.storage.unit,
  });
  const path = fileIn(sessionDir, 'distribution');
  return { index, readBin: fileBins(path, index, layout.bytes ?? 8) };
}

const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Exact answers to `query` over a session's distribution (bins read as they are needed). */
export async function answerInsight(
  { index, readBin }: { index: DistributionIndex; readBin: BinReader },
  analysis: AnalysisSummary,
  query: InsightQuery,
): Promise<InsightAnswer> {
  const budgets = query.budgets ?? [];
  const ranges = query.ranges ?? [];
  if (!budgets.every(isAmount)) {
    throw new EngineError('INVALID_PARAMS', 'Every budget must be an amount ≥ 0.', 'budgets');
  }
  if (!ranges.every((r) => isAmount(r.min) && isAmount(r.max) && r.min <= r.max)) {
    throw new EngineError(
      'INVALID_PARAMS',
      'Every range needs amounts min ≤ max, both ≥ 0.',
      'ranges',
    );
  }
  if (budgets.length > INSIGHT_MAX_BUDGETS) {
    throw new EngineError('INVALID_PARAMS', `At most ${INSIGHT_MAX_BUDGETS} budgets.`, 'budgets');
  }
  if (ranges.length > INSIGHT_MAX_RANGES) {
    throw new EngineError('INVALID_PARAMS', `At most ${INSIGHT_MAX_RANGES} ranges.`, 'ranges');
  }
  const exceedTargets = query.exceedTargets ?? [];
  const excessTargets = query.excessTargets ?? [];
  const shortfallLevels = query.shortfallLevels ?? [];
  const isChance = (p: unknown): p is number => isAmount(p) && p < 1;
  if (!exceedTargets.every(isChance) || exceedTargets.length > INSIGHT_MAX_EXCEED_TARGETS) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_EXCEED_TARGETS} chances of exceeding, each at least 0 and below 1.`,
      'exceedTargets',
    );
  }
  if (!excessTargets.every(isAmount) || excessTargets.length > INSIGHT_MAX_EXCESS_TARGETS) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_EXCESS_TARGETS} expected excesses, each an amount ≥ 0.`,
      'excessTargets',
    );
  }
  if (
    !shortfallLevels.every((q) => isChance(q) && q > 0) ||
    shortfallLevels.length > INSIGHT_MAX_SHORTFALL_LEVELS
  ) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_SHORTFALL_LEVELS} shortfall levels, each above 0 and below 1.`,
      'shortfallLevels',
    );
  }
  const distribution = new DistributionQuery(index, readBin);
  const { stats } = analysis;
  const jackpotDraws = stats.jackpotDraws ?? 0;
  // sessions analysed before the far quantiles existed have only some of them stored
  const stored = stats.quantiles;
  const storedAll = stored && QUANTILE_KEYS.every((q) => q in stored);
  return {
    draws: analysis.draws,
    min: stats.min,
    max: stats.max,
    mean: stats.mean,
    quantiles: storedAll ? stored : await quantiles(distribution),
    jackpotDraws,
    jackpotShare: jackpotDraws / analysis.draws,
    worst: {
      combo: stats.worstDraw.combo,
      totalPayout: stats.worstDraw.totalPayout,
      winners: stats.worstDraw.winners,
    },
    budgets: await Promise.all(budgets.map((b) => budgetInsight(distribution, b))),
    ranges: await Promise.all(ranges.map((r) => rangeInsight(distribution, r.min, r.max))),
    limits: await Promise.all(exceedTargets.map((p) => exceedLimit(distribution, p))),
    excessLimits: await Promise.all(excessTargets.map((e) => excessLimit(distribution, e))),
    shortfall: await Promise.all(shortfallLevels.map((q) => shortfall(distribution, q))),
  };
}
