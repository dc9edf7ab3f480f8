import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { CancelledError, invariant } from '../core/errors';
import { totalsInBins, type BinPass } from '../analysis/distribution';
import type { RangeRequest, RangeResult } from '../reading/range-reader';
import type { ScanChunk, ScanParams, ScanStats } from '../core/scan';
import { SharedBufferLease, tableBufferPool, type SharedBufferPool } from '../core/shared-buffers';
import { INLINE_BUILD } from '../core/tables';
import type { ScanWorkerData, WorkerReply, WorkerRequest } from './scan-worker';
import type { BuildOp, BuildPlan, Tables } from '../core/table-types';
import { startWorker } from './worker-entry';
import { takeEarlyScanWorkers } from './early-workers';

/** Starts one winners thread (`winners-pool.ts`). */
export function startWinnersWorker(): Worker {
  return startWorker('winners');
}

/** Starts one scan worker thread (`scan-worker.ts`). */
export function startScanWorker({ warmUp = true }: StartOptions = {}): Worker {
  const workerData: ScanWorkerData = { warmUp };
  return startWorker('scan', { workerData });
}

export interface StartOptions {
  /**
   * Run the kernels once on a small problem as the worker starts (default). A process that runs one
   * analysis and exits (the CLI) turns it off: cold, the warm-up takes both cores for ~0.2–0.4 s while
   * the file is being read, more than the re-optimisation it spares that one analysis. Such a worker
   * also copies its read results instead of transferring them (see `scan-worker.ts`).
   */
  warmUp?: boolean;
}

// Idle workers kept between analyses (unref'd: they never keep the process alive), so a service's
// next analysis starts at once, with kernels already optimised by V8.
const idleWorkers: Worker[] = [];
const idleExit = new WeakMap<Worker, () => void>();

/** Makes the workers the CLI started before this module loaded (`early-workers.ts`) idle ones. */
function adoptEarlyWorkers(): void {
  const early = takeEarlyScanWorkers();
  if (early.length > 0) releaseWorkers(early, true);
}

/** `n` workers for one analysis: idle ones first, new ones started for the rest. */
export function takeWorkers(n: number): Worker[] {
  adoptEarlyWorkers();
  const out = idleWorkers.splice(0, n);
  for (const w of out) {
    const onExit = idleExit.get(w);
    if (onExit) w.off('exit', onExit);
    w.ref();
  }
  while (out.length < n) out.push(startScanWorker());
  return out;
}

/** Gives workers back after an analysis: kept idle when `reuse`, else terminated. */
export function releaseWorkers(workers: Worker[], reuse: boolean): void {
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

/**
 * Starts `n` workers ahead of the first analysis (e.g. at service start) and keeps them idle, so the
 * first analysis finds them started and their kernels warmed instead of paying ~0.1–0.3 s for it.
 */
export function prestartScanWorkers(
  n: number = os.availableParallelism(),
  options: StartOptions = {},
): void {
  adoptEarlyWorkers();
  const missing = Math.min(n, os.availableParallelism()) - idleWorkers.length;
  if (missing > 0)
    releaseWorkers(
      Array.from({ length: missing }, () => startScanWorker(options)),
      true,
    );
}

/** How many started workers are waiting idle for the next analysis. */
export function idleScanWorkerCount(): number {
  adoptEarlyWorkers();
  return idleWorkers.length;
}

/** Terminates the idle workers kept for reuse and drops the spare table buffers (e.g. on shutdown). */
export async function closeScanWorkers(): Promise<void> {
  adoptEarlyWorkers();
  tableBufferPool.clear();
  const all = idleWorkers.splice(0);
  await Promise.all(all.map((w) => w.terminate()));
}

/**
 * Sends one request to each worker (`requests[i]` to `workers[i]`) and resolves when every one has
 * answered `until`; other replies go to `onReply`. Rejects on the first error, early exit or abort.
 * Listeners are removed when settled: pooled workers live on (never removeAllListeners() on a
 * Worker: it also drops Node's own listeners that keep its message port referenced).
 */
function callWorkers(
  workers: Worker[],
  requests: WorkerRequest[],
  until: 'read' | 'built' | 'done' | 'bins',
  signal: AbortSignal | undefined,
  onReply: (reply: WorkerReply, worker: number) => void = () => undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    let pending = requests.length;
    let settled = false;
    const detach: (() => void)[] = [];
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      for (const d of detach) d();
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => settle(new CancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });
    if (pending === 0) settle();
    requests.forEach((request, i) => {
      const worker = workers[i]!;
      const onMessage = (reply: WorkerReply) => {
        if (settled || reply.type === 'ready') return;
        if (reply.type === 'error') settle(new Error(`scan worker failed: ${reply.message}`));
        else {
          onReply(reply, i);
          if (reply.type === until && --pending === 0) settle();
        }
      };
      const onError = (err: Error) => settle(err);
      const onExit = (code: number) => settle(new Error(`scan worker exited early (code ${code})`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      detach.push(() => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      });
      worker.postMessage(request);
    });
  });
}

/** Reads one byte range on one worker. */
export async function readRangeOnWorker(
  worker: Worker,
  range: RangeRequest,
  signal: AbortSignal | undefined,
): Promise<RangeResult> {
  let result: RangeResult | undefined;
  await callWorkers([worker], [{ kind: 'read', range }], 'read', signal, (r) => {
    if (r.type === 'read') result = r.result;
  });
  return result!;
}

/**
 * Runs `work` on a build plan over `threads` workers (one: this thread), with a lease of `pool`'s
 * buffers: the workers go back idle and the buffers to the pool only after a clean finish (after a
 * failure a worker may still be writing to them: the workers are terminated, the buffers dropped).
 */
export async function withBuildPlan<T>(
  threads: number | undefined,
  pool: SharedBufferPool,
  signal: AbortSignal | undefined,
  work: (plan: BuildPlan, buffers: SharedBufferLease) => Promise<T>,
): Promise<T> {
  const n = Math.max(1, Math.floor(threads ?? os.availableParallelism()));
  const workers = n > 1 ? takeWorkers(n) : [];
  const buffers = new SharedBufferLease(pool);
  let clean = false;
  try {
    const result = await work(
      workers.length > 0 ? buildOnWorkers(workers, signal) : INLINE_BUILD,
      buffers,
    );
    clean = true;
    return result;
  } finally {
    releaseWorkers(workers, clean);
    if (clean) buffers.release();
  }
}

/** A build plan that runs each step's pieces on the workers, piece i on worker i mod n. */
export function buildOnWorkers(workers: Worker[], signal: AbortSignal | undefined): BuildPlan {
  return {
    parts: workers.length,
    run: (ops: BuildOp[]) => {
      const perWorker: BuildOp[][] = workers.map(() => []);
      ops.forEach((op, i) => perWorker[i % workers.length]!.push(op));
      const busy = perWorker.flatMap((list, i) => (list.length > 0 ? [i] : []));
      return callWorkers(
        busy.map((i) => workers[i]!),
        busy.map((i) => ({ kind: 'build', ops: perWorker[i]! })),
        'built',
        signal,
      );
    },
  };
}

/** Scans the draws of `split[i]`'s top numbers on worker i; chunks and progress as they come. */
export async function scanOnWorkers(
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
  // in the order of `split` (the distribution's grouping relies on it)
  const results: ScanStats[] = [];
  const progress = new Float64Array(workers.length);
  await callWorkers(
    workers,
    split.map((tops) => ({ kind: 'scan', tables, params, tops })),
    'done',
    hooks.signal,
    (reply, i) => {
      if (reply.type === 'chunk') hooks.onChunk(reply.chunk);
      else if (reply.type === 'progress') {
        progress[i] = reply.draws;
        hooks.onDraws(progress.reduce((s, x) => s + x, 0));
      } else if (reply.type === 'done') results[i] = reply.stats;
    },
  );
  return results;
}

/**
 * A bin pass (`scannedBins`) split over up to `n` of the idle scan workers, each walking an even share
 * of the draws' totals (shared memory, not copied) for the bins asked; their finds are joined per bin.
 * The workers are taken for each pass and given back idle after it; with fewer than two idle (none
 * started for it), the pass runs in this thread.
 */
export function binPassOnWorkers(n: number, totals: Float64Array, shift: number): BinPass {
  invariant(
    totals.buffer instanceof SharedArrayBuffer,
    'the totals must be shared with the workers',
  );
  return async (bins) => {
    const k = Math.min(n, idleWorkers.length);
    if (k < 2) return totalsInBins(totals, shift, bins, 0, totals.length);
    const workers = takeWorkers(k);
    const parts: Float64Array[][] = [];
    let clean = false;
    try {
      const length = totals.length;
      await callWorkers(
        workers,
        workers.map((_, i) => ({
          kind: 'bins' as const,
          totals,
          shift,
          bins,
          from: Math.floor((length * i) / k),
          to: Math.floor((length * (i + 1)) / k),
        })),
        'bins',
        undefined,
        (reply, i) => {
          if (reply.type === 'bins') parts[i] = reply.found;
        },
      );
      clean = true;
    } finally {
      releaseWorkers(workers, clean);
    }
    return bins.map((_, b) => {
      const all = new Float64Array(parts.reduce((sum, found) => sum + found[b]!.length, 0));
      let at = 0;
      for (const found of parts) {
        all.set(found[b]!, at);
        at += found[b]!.length;
      }
      return all;
    });
  };
}
