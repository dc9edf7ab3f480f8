import { parentPort, workerData } from 'node:worker_threads';
import { readRange, type RangeRequest, type RangeResult } from '../reading/range-reader';
import { scanTops, type ScanChunk, type ScanParams, type ScanStats } from '../core/scan';
import { runBuildOp } from '../core/tables';
import { totalsInBins } from '../analysis/distribution';
import type { BuildOp, Tables } from '../core/table-types';
import { warmUpKernels } from './warm-up';

/**
 * A request from the main thread: a byte range of a CSV to read, pieces of the table build, or a scan
 * over the shared tables.
 */
export type WorkerRequest =
  | { kind: 'read'; range: RangeRequest }
  | { kind: 'build'; ops: BuildOp[] }
  | { kind: 'scan'; tables: Tables; params: ScanParams; tops: number[] }
  /** The totals of draws [from, to) in each of `bins` (`totalsInBins`). */
  | { kind: 'bins'; totals: Float64Array; shift: number; bins: number[]; from: number; to: number };

/** What the worker answers: `built` after a build request; chunks, progress, then `done` for a scan. */
export type WorkerReply =
  | { type: 'ready'; warmUp: boolean }
  | { type: 'read'; result: RangeResult }
  | { type: 'built' }
  | { type: 'chunk'; chunk: ScanChunk }
  | { type: 'progress'; draws: number }
  | { type: 'done'; stats: ScanStats }
  | { type: 'bins'; found: Float64Array[] }
  | { type: 'error'; message: string };

const port = parentPort;
if (!port) throw new Error('scan-worker.ts must run in a worker thread');
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(reply, transfer);

/** What a worker is started with: `startScanWorker` always passes it (and holds the defaults). */
export interface ScanWorkerData {
  warmUp: boolean;
}

// The kernels run once on a small problem first, so the real data meets optimised code that has seen
// every branch (requests that arrive meanwhile wait for it); unless the starter turned it off.
const { warmUp } = workerData as ScanWorkerData;
// A worker that warms up transfers its results (below), and V8's first detach of a buffer in a
// thread throws away every kernel optimised before it: detached first, the warm-up's code is the
// code the real data runs (without it, the first book opening's pass ran ~100 ms instead of ~55)
if (warmUp) detachOne();
const warm = warmUp ? warmUpKernels() : Promise.resolve();

function detachOne(): void {
  const bytes = new ArrayBuffer(8);
  structuredClone(bytes, { transfer: [bytes] });
}

/**
 * A worker started without the warm-up runs one analysis, and the process ends (the CLI): it copies
 * its read results to the main thread instead of transferring them. A transfer detaches the buffers,
 * and V8's first detach in a thread throws away every optimised kernel that assumed no buffer ever
 * would be detached (the range reader and the 6-subset count were compiled again after the first
 * range) and compiles the later ones with a check per typed-array access; the copy (~11 bytes per
 * ticket) costs less. A long-lived worker transfers: its first analysis has detached buffers anyway.
 */
const transferReads = warmUp;

/** Answers one request; every failure, the warm-up's included, goes back as an `error` reply. */
async function handle(req: WorkerRequest) {
  try {
    // reading needs no warm kernels: it runs while they warm up (the read comes first)
    if (req.kind === 'read') {
      const result = readRange(req.range);
      const read = 'part' in result ? result : null;
      post(
        { type: 'read', result },
        read && transferReads
          ? [
              read.part.tickets,
              read.part.lines,
              read.part.offsets,
              read.part.lengths,
              ...(read.ranks ? [read.ranks] : []),
              ...(read.alsoRanks ? [read.alsoRanks] : []),
            ].map((a) => a.buffer as ArrayBuffer)
          : [],
      );
      return;
    }
    await warm;
    if (req.kind === 'bins') {
      const found = totalsInBins(req.totals, req.shift, req.bins, req.from, req.to);
      post(
        { type: 'bins', found },
        found.map((f) => f.buffer as ArrayBuffer),
      );
      return;
    }
    if (req.kind === 'build') {
      for (const op of req.ops) runBuildOp(op);
      post({ type: 'built' });
      return;
    }
    const stats = scanTops(req.tables, req.params, req.tops, {
      chunk(chunk) {
        post({ type: 'chunk', chunk }, [
          chunk.ranks.buffer as ArrayBuffer,
          ...chunk.counts.map((c) => c.buffer as ArrayBuffer),
        ]);
      },
      progress(draws) {
        post({ type: 'progress', draws });
      },
    });
    post({ type: 'done', stats }, [
      stats.hist.buffer as ArrayBuffer,
      ...(stats.exact.length > 0 ? [stats.exact.buffer as ArrayBuffer] : []),
    ]);
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

port.on('message', (req: WorkerRequest) => void handle(req));
post({ type: 'ready', warmUp });
