import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CancelledError, EngineError, throwIfAborted } from './errors';
import {
  type Budget,
  type Payouts,
  BINOM,
  colexUnrank,
  drawCount,
  PICK,
  validateBudget,
  validatePayouts,
  validatePool,
} from './model';
import {
  coarsen,
  HIST_BINS,
  scanTops,
  type ScanChunk,
  type ScanParams,
  type ScanStats,
} from './scan';
import { addTierTables, buildTables, estimateQualifyingShare, type Tables } from './tables';
import { deriveWeights, unitsToAmount, type Weights } from './weights';

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
}

/**
 * The qualifying draws in ascending colex rank, column-wise and chunked (no single huge allocation):
 * each chunk has `ranks` and winners per match type 3..7 (`counts[0..4]`).
 */
export interface QualifyingTable {
  length: number;
  chunks: { length: number; ranks: Uint32Array; counts: (Uint16Array | Uint32Array)[] }[];
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
    histogram: { edges: number[]; counts: number[] };
  };
  table: QualifyingTable;
  timings: { buildMs: number; scanMs: number; totalMs: number; workers: number };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Splits the top numbers (largest element, 0-based) over workers, largest first, least-loaded first. */
export function splitTops(pool: number, workers: number): number[][] {
  const lists: number[][] = Array.from({ length: workers }, () => []);
  const load = new Float64Array(workers);
  for (let g = pool - 1; g >= PICK - 1; g--) {
    let best = 0;
    for (let i = 1; i < workers; i++) if (load[i]! < load[best]!) best = i;
    lists[best]!.push(g);
    load[best] = load[best]! + BINOM[g]![6]!;
  }
  return lists;
}

let workerBundle: string | null | undefined;

/**
 * The scan worker as one plain-JS (CommonJS) string, bundled once per process with the esbuild that
 * tsx itself runs on (so no extra dependency). Starting such a worker costs ~30 ms instead of the
 * ~250 ms CPU of registering tsx in every worker. Null when esbuild cannot be found.
 */
function scanWorkerBundle(): string | null {
  if (workerBundle !== undefined) return workerBundle;
  try {
    const here = createRequire(import.meta.url);
    const esbuild = createRequire(here.resolve('tsx'))('esbuild') as {
      buildSync(o: Record<string, unknown>): { outputFiles: { text: string }[] };
    };
    const out = esbuild.buildSync({
      entryPoints: [fileURLToPath(new URL('./scan-worker.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    workerBundle = out.outputFiles[0]?.text ?? null;
  } catch {
    workerBundle = null;
  }
  return workerBundle;
}

/**
 * Starts one scan worker thread: from the esbuild bundle when possible, else through the
 * `scan-worker.mjs` bootstrap that registers tsx in the worker (see there).
 */
export function startScanWorker(via: 'auto' | 'tsx' = 'auto'): Worker {
  const code = via === 'auto' ? scanWorkerBundle() : null;
  if (code !== null) return new Worker(code, { eval: true });
  return new Worker(new URL('./scan-worker.mjs', import.meta.url));
}

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
  let clean = false;
  try {
    onProgress?.({ phase: 'building', fraction: 0, drawsEvaluated: 0 });
    await yieldToLoop();
    const tables = buildTables(tickets, count, pool, weights);
    const mode = opts.countMode ?? 'auto';
    if (
      mode === 'dense' ||
      (mode === 'auto' &&
        estimateQualifyingShare(tables, weights.alpha[7]!, weights.lo, weights.hi) > 0.04)
    ) {
      addTierTables(tables);
    }
    const tBuilt = performance.now();
    throwIfAborted(signal);
    const totalDraws = drawCount(pool);
    const buildShare = 0.4;
    onProgress?.({ phase: 'scanning', fraction: buildShare, drawsEvaluated: 0 });
    throwIfAborted(signal);

    const wide = [3, 4, 5, 6, 7].map((m) => BINOM[7]![m]! * tables.maxCount[m]! > 65535);
    const params: ScanParams = {
      pool,
      w: Array.from(weights.w),
      alpha7: weights.alpha[7]!,
      lo: weights.lo,
      hi: weights.hi,
      wide,
    };
    const chunks: ScanChunk[] = [];
    let statsList: ScanStats[];
    if (workers.length === 0) {
      statsList = [];
      let done = 0;
      for (const g of splitTops(pool, 1)[0]!) {
        throwIfAborted(signal);
        const st = scanTops(
          tables,
          params,
          [g],
          (c) => chunks.push(c),
          () => undefined,
        );
        statsList.push(st);
        done += st.draws;
        onProgress?.({
          phase: 'scanning',
          fraction: buildShare + ((1 - buildShare) * done) / totalDraws,
          drawsEvaluated: done,
        });
        await yieldToLoop();
      }
    } else {
      statsList = await scanInWorkers(workers, tables, params, splitTops(pool, nWorkers), {
        signal,
        onChunk: (c) => chunks.push(c),
        onDraws: (done) =>
          onProgress?.({
            phase: 'scanning',
            fraction: buildShare + ((1 - buildShare) * done) / totalDraws,
            drawsEvaluated: done,
          }),
      });
    }
    const tScanned = performance.now();
    chunks.sort((x, y) => x.g - y.g || x.seq - y.seq);
    const table: QualifyingTable = {
      length: chunks.reduce((s, c) => s + c.length, 0),
      chunks: chunks.map((c) => ({ length: c.length, ranks: c.ranks, counts: c.counts })),
    };
    clean = true;
    const stats = mergeStats(statsList, weights, opts.histogramBins ?? 50);
    return {
      pool,
      tickets: count,
      draws: totalDraws,
      qualified: table.length,
      weights,
      stats,
      table,
      timings: {
        buildMs: tBuilt - t0,
        scanMs: tScanned - tBuilt,
        totalMs: performance.now() - t0,
        workers: nWorkers,
      },
    };
  } finally {
    releaseWorkers(workers, clean && opts.reuseWorkers !== false);
  }
}

// Idle scan workers kept between analyses (unref'd: they never keep the process alive), so a
// service's next analysis starts at once, with kernels already optimised by V8.
const idleWorkers: Worker[] = [];
const idleExit = new WeakMap<Worker, () => void>();

function takeWorkers(n: number): Worker[] {
  const out = idleWorkers.splice(0, n);
  for (const w of out) {
    const onExit = idleExit.get(w);
    if (onExit) w.off('exit', onExit);
    w.ref();
  }
  while (out.length < n) out.push(startScanWorker());
  return out;
}

function releaseWorkers(workers: Worker[], reuse: boolean): void {
  for (const w of workers) {
    if (reuse && idleWorkers.length < os.availableParallelism()) {
      w.unref();
      const onExit = () => {
        const at = idleWorkers.indexOf(w);
        if (at !== -1) idleWorkers.splice(at, 1);
      };
      idleExit.set(w, onExit);
      w.once('exit', onExit);
      idleWorkers.push(w);
    } else void w.terminate();
  }
}

/** Terminates the idle scan workers kept for reuse (e.g. on shutdown); safe to call any time. */
export async function closeScanWorkers(): Promise<void> {
  const all = idleWorkers.splice(0);
  await Promise.all(all.map((w) => w.terminate()));
}

function scanInWorkers(
  workers: Worker[],
  tables: Tables,
  params: ScanParams,
  split: number[][],
  hooks: {
    signal: AbortSignal | undefined;
    onChunk: (c: ScanChunk) => void;
    onDraws: (done: number) => void;
  },
): Promise<ScanStats[]> {
  return new Promise<ScanStats[]>((resolve, reject) => {
    const results: ScanStats[] = [];
    const progress = new Float64Array(workers.length);
    let pending = workers.length;
    let settled = false;
    // listeners are removed when done: pooled workers live on (never removeAllListeners() on a
    // Worker: it also drops Node's own listeners that keep its message port referenced)
    const detach: (() => void)[] = [];
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      hooks.signal?.removeEventListener('abort', onAbort);
      for (const d of detach) d();
      reject(err);
    };
    const onAbort = () => fail(new CancelledError());
    if (hooks.signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    workers.forEach((worker, i) => {
      const onMessage = (msg: { type: string; [k: string]: unknown }) => {
        if (settled) return;
        if (msg.type === 'chunk') hooks.onChunk(msg.chunk as ScanChunk);
        else if (msg.type === 'progress') {
          progress[i] = msg.draws as number;
          hooks.onDraws(progress.reduce((s, x) => s + x, 0));
        } else if (msg.type === 'done') {
          results.push(msg.stats as ScanStats);
          if (--pending === 0) {
            settled = true;
            hooks.signal?.removeEventListener('abort', onAbort);
            for (const d of detach) d();
            resolve(results);
          }
        } else if (msg.type === 'error')
          fail(new Error(`scan worker failed: ${String(msg.message)}`));
      };
      const onError = (err: Error) => fail(err);
      const onExit = (code: number) => {
        if (!settled) fail(new Error(`scan worker exited early (code ${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      detach.push(() => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      });
      worker.postMessage({ tables, params, tops: split[i] });
    });
  });
}

/** Merges per-worker stats into currency-unit statistics with an exact histogram of ≤ `bins` bins. */
function mergeStats(list: ScanStats[], weights: Weights, bins: number): AnalysisResult['stats'] {
  let min = Infinity;
  let max = -Infinity;
  let worstRank = -1;
  let worstLex = Infinity;
  let draws = 0;
  let big = 0n;
  let small = 0;
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
    big += BigInt(s.sumBig);
    small += s.sumSmall;
    if (s.shift > shift) shift = s.shift;
  }
  const hist = new Float64Array(HIST_BINS);
  for (const s of list) {
    if (s.draws === 0) continue;
    coarsen(s.hist, s.shift, shift);
    for (let i = 0; i < HIST_BINS; i++) hist[i] = hist[i]! + s.hist[i]!;
  }
  const width = 2 ** shift;
  const first = Math.floor(min / width);
  const last = Math.floor(max / width);
  const n = last - first + 1;
  const group = Math.ceil(n / bins);
  const k = Math.ceil(n / group);
  const edges: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i <= k; i++) edges.push(unitsToAmount((first + i * group) * width, weights.unit));
  for (let i = 0; i < k; i++) {
    let c = 0;
    for (let j = first + i * group; j < Math.min(first + (i + 1) * group, HIST_BINS); j++)
      c += hist[j]!;
    counts.push(c);
  }
  const sumUnits = Number(big) + small;
  return {
    min: unitsToAmount(min, weights.unit),
    mean: unitsToAmount(sumUnits / draws, weights.unit),
    max: unitsToAmount(max, weights.unit),
    worstRank,
    histogram: { edges, counts },
  };
}

/** The seven ascending 1-based numbers of a colex rank. */
export function drawNumbers(rank: number): number[] {
  const out = [0, 0, 0, 0, 0, 0, 0];
  colexUnrank(rank, PICK, out, 48);
  return out.map((x) => x + 1);
}
