import os from 'node:os';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { EngineError, type EngineErrorCode } from '../core/errors';
import type { MatchType } from '../core/model';
import { startWinnersWorker } from './workers';
import {
  SEGMENT,
  winnersCsvChunks,
  winnersInOrder,
  type WinnerOrder,
  type WinnersSource,
} from '../analysis/winners-csv';
import type { WinnersReply, WinnersRequest } from './winners-worker';
import { buildTicketLookup, type TicketLookup } from '../analysis/ticket-lookup';
import { RowReader } from '../analysis/winners';
import {
  buildDrawIndex,
  buildSortOrder,
  type DrawIndex,
  type IndexedQuery,
} from '../core/draw-index';
import { scanPart, wordParts, type ScannedPart } from '../core/draw-index-scan';
import { walkPositions } from '../core/draw-index-answers';
import type { QueryContext } from '../core/draw-query';

/**
 * The threads that find winners and write winners CSVs for a service (issue #27): walking every ticket
 * (~50–90 ms at 10M) and writing a large CSV never run on the event loop, and downloads proceed side
 * by side on the machine's cores. Started on first use, at most two (downloads share the cores with
 * analyses); unref'd, so they never keep a process alive.
 */
const MAX_THREADS = 2;
interface Thread {
  worker: Worker;
  busy: number;
  /** Ports of the requests it is serving: told when the thread dies under them. */
  ports: Set<MessagePort>;
}
const threads: Thread[] = [];
/** Requests a lookup build counts as when the least busy thread is picked. */
const LOOKUP_WEIGHT = 16;

function leastBusy(): Thread {
  const size = Math.min(MAX_THREADS, os.availableParallelism());
  if (threads.length < size && threads.every((t) => t.busy > 0)) {
    const worker = startWinnersWorker();
    worker.unref();
    const thread: Thread = { worker, busy: 0, ports: new Set() };
    const gone = (why: string) => {
      const at = threads.indexOf(thread);
      if (at !== -1) threads.splice(at, 1);
      for (const port of thread.ports) port.emit('message', { type: 'error', message: why });
    };
    worker.on('error', (err) => gone(err.message));
    worker.on('exit', (code) => gone(`exited (code ${code})`));
    threads.push(thread);
    return thread;
  }
  return threads.reduce((a, b) => (b.busy < a.busy ? b : a));
}

/** Whether `source` lives in shared memory (a worker then reads it without a copy). */
function shared(source: WinnersSource): boolean {
  return [source.tickets, source.masks.lo, source.masks.hi, source.offsets, source.lengths].every(
    (a) => a.buffer instanceof SharedArrayBuffer,
  );
}

function replyError(reply: Extract<WinnersReply, { type: 'error' }>): Error {
  return reply.code
    ? new EngineError(reply.code as EngineErrorCode, reply.message, reply.field)
    : new Error(`winners worker failed: ${reply.message}`);
}

type WithoutPort<T> = T extends unknown ? Omit<T, 'port'> : never;

/**
 * Sends `request` (with a fresh port) to the least busy thread, counted as `weight` requests there;
 * the port and a release callback.
 */
function dispatch(request: WithoutPort<WinnersRequest>, weight = 1) {
  const thread = leastBusy();
  const { port1, port2 } = new MessageChannel();
  thread.busy += weight;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    thread.busy -= weight;
    port1.close();
  };
  thread.ports.add(port1);
  thread.worker.postMessage({ ...request, port: port2 } as WinnersRequest, [port2]);
  return {
    port: port1,
    release: () => {
      thread.ports.delete(port1);
      release();
    },
  };
}

/**
 * Sends a request answered by one reply (`find`, `lookup`) and resolves with what `answer` takes from
 * it; an error reply rejects.
 */
async function askOnce<T>(
  request: WithoutPort<
    Extract<
      WinnersRequest,
      {
        kind: 'find' | 'lookup' | 'rows' | 'drawIndex' | 'scanIndex' | 'sortOrder' | 'walkIndex';
      }
    >
  >,
  answer: (reply: WinnersReply) => T | undefined,
  weight = 1,
): Promise<T> {
  const { port, release } = dispatch(request, weight);
  try {
    return await new Promise<T>((resolve, reject) => {
      port.on('message', (reply: WinnersReply) => {
        if (reply.type === 'error') return reject(replyError(reply));
        const value = answer(reply);
        if (value !== undefined) resolve(value);
      });
    });
  } finally {
    release();
  }
}

/** The winners of a draw in download order, found on a winners thread (in this thread if unshared). */
export async function findWinnersOnThreads(
  source: WinnersSource,
  numbers: number[],
  matchType: MatchType | 'all',
): Promise<WinnerOrder> {
  if (!shared(source)) return winnersInOrder(source, numbers, matchType);
  return askOnce({ kind: 'find', source, numbers, matchType }, (reply) =>
    reply.type === 'found' ? reply.order : undefined,
  );
}

/** The tickets of `source` grouped by combination (`ticket-lookup.ts`), built on a winners thread. */
export async function buildLookupOnThreads(source: WinnersSource): Promise<TicketLookup> {
  if (!shared(source)) return buildTicketLookup(source.tickets, source.masks.lo.length);
  // a long job (~1 s at 10M): downloads go to the other thread meanwhile
  return askOnce(
    { kind: 'lookup', source },
    (reply) => (reply.type === 'lookup' ? reply.lookup : undefined),
    LOOKUP_WEIGHT,
  );
}

/**
 * The fields of rows `indexes` of `source` (ticket indexes, ascending): a winners page, read on a
 * winners thread with synchronous reads (in this thread if `source` is unshared).
 */
export async function readRowsOnThreads(
  source: WinnersSource,
  indexes: Uint32Array,
): Promise<string[][]> {
  const { rowsPath, delimiter, offsets, lengths } = source;
  if (!shared(source))
    return new RowReader(rowsPath, delimiter, offsets, lengths).rowsSync(indexes);
  // a copy of the page's indexes: a view would send its whole buffer (every winner of the draw)
  return askOnce({ kind: 'rows', source, indexes: indexes.slice() }, (reply) =>
    reply.type === 'rows' ? reply.rows : undefined,
  );
}

/** Whether every column of the table lives in shared memory. */
function sharedTable(ctx: QueryContext): boolean {
  return ctx.table.chunks.every((ch) =>
    [ch.ranks, ...ch.counts].every((a) => a.buffer instanceof SharedArrayBuffer),
  );
}

/**
 * The filter index of a session's qualifying draws (`core/draw-index.ts`, seconds at 3–5M draws),
 * built on a winners thread into shared memory (in this thread if the table is unshared).
 */
export async function buildDrawIndexOnThreads(ctx: QueryContext): Promise<DrawIndex | null> {
  if (!sharedTable(ctx)) return buildDrawIndex(ctx);
  return askOnce(
    { kind: 'drawIndex', ctx },
    (reply) => (reply.type === 'drawIndex' ? reply.index : undefined),
    LOOKUP_WEIGHT,
  );
}

/**
 * The scan a filter still needs (`needsScan`), cut in one part per winners thread and run side by
 * side: the event loop only merges their best rows. `signal` (the client gone) stops the threads
 * within 64K draws and rejects with CancelledError. In this thread if the index is unshared.
 */
export async function scanIndexOnThreads(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  signal?: AbortSignal,
  countOnly = false,
): Promise<ScannedPart[]> {
  const parts = wordParts(q, Math.min(MAX_THREADS, os.availableParallelism()));
  if (!(index.rank.buffer instanceof SharedArrayBuffer)) {
    const stopped = () => !!signal?.aborted;
    return parts.map(([from, to]) => scanPart(index, w, q, from, to, stopped, countOnly));
  }
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const onAbort = () => Atomics.store(stop, 0, 1);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    return await Promise.all(
      parts.map(([wordFrom, wordTo]) =>
        askOnce(
          { kind: 'scanIndex', index, w: Array.from(w), q, wordFrom, wordTo, stop, countOnly },
          (reply) => (reply.type === 'scanned' ? reply.part : undefined),
        ),
      ),
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The index's positions in a sort's order (`buildSortOrder`), made on a winners thread. */
export async function buildSortOrderOnThreads(index: DrawIndex, key: number): Promise<Uint32Array> {
  if (!(index.rank.buffer instanceof SharedArrayBuffer)) return buildSortOrder(index, key);
  return askOnce(
    { kind: 'sortOrder', index, key },
    (reply) => (reply.type === 'sortOrder' ? reply.order : undefined),
    LOOKUP_WEIGHT,
  );
}

/**
 * The positions of a filter's page (`matched` draws pass), walked in its sort's order on a winners
 * thread (`walkPositions`; null: longer than `maxSteps`), so a long walk never holds the event loop.
 * In this thread if the index is unshared.
 */
export async function walkIndexOnThreads(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  matched: number,
  order: Uint32Array | null,
  maxSteps = Infinity,
): Promise<number[] | null> {
  if (!(index.rank.buffer instanceof SharedArrayBuffer))
    return walkPositions(index, w, q, matched, order, maxSteps);
  // `undefined` (not the walk's null) tells askOnce to keep waiting
  return askOnce(
    { kind: 'walkIndex', index, w: Array.from(w), q, matched, order, maxSteps },
    (reply) => (reply.type === 'walked' ? reply.positions : undefined),
  );
}

/** One CSV request on a thread: its replies in arrival order; `cancel` unless it ended. */
function csvStream(request: WithoutPort<Extract<WinnersRequest, { kind: 'csv' }>>) {
  const { port, release } = dispatch(request);
  const queue: WinnersReply[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  port.on('message', (reply: WinnersReply) => {
    queue.push(reply);
    wake?.();
    wake = null;
  });
  return {
    /** The next chunk (acknowledged), 'segment', or null at the end. */
    async next(): Promise<Uint8Array | 'segment' | null> {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((r) => (wake = r));
        const reply = queue.shift()!;
        if (reply.type === 'error') throw replyError(reply);
        if (reply.type === 'end') {
          ended = true;
          return null;
        }
        if (reply.type === 'segment') return 'segment';
        if (reply.type !== 'chunk') continue;
        port.postMessage('more');
        return reply.chunk;
      }
    },
    finish() {
      if (!ended) port.postMessage('cancel');
      release();
    },
  };
}

/**
 * The winners CSV of a draw as byte chunks written on the winners threads, at most a few chunks ahead
 * of the reader (in this thread if `source` is unshared). A download of more than two segments is
 * shared: the threads write alternate segments of SEGMENT winners side by side, read back in order
 * (on a busy machine two threads also get two shares of the cores). Ending the iteration early stops
 * the threads' work and closes their files.
 */
export async function* winnersCsvOnThreads(
  source: WinnersSource,
  numbers: number[],
  order: WinnerOrder,
): AsyncGenerator<Uint8Array> {
  if (!shared(source)) {
    yield* winnersCsvChunks(source, numbers, order);
    return;
  }
  const n = order.index.length;
  const split = n > 2 * SEGMENT && Math.min(MAX_THREADS, os.availableParallelism()) > 1;
  const streams = split
    ? [0, 1].map((first) =>
        csvStream({ kind: 'csv', source, numbers, order, share: { first, step: 2 } }),
      )
    : [csvStream({ kind: 'csv', source, numbers, order })];
  try {
    if (!split) {
      for (let chunk = await streams[0]!.next(); chunk; chunk = await streams[0]!.next())
        if (chunk !== 'segment') yield chunk;
      return;
    }
    const segments = Math.ceil(n / SEGMENT);
    for (let s = 0; s < segments; s++) {
      const stream = streams[s % 2]!;
      for (let chunk = await stream.next(); chunk !== 'segment'; chunk = await stream.next()) {
        if (chunk === null) throw new Error('winners worker ended a shared download early');
        yield chunk;
      }
    }
  } finally {
    for (const stream of streams) stream.finish();
  }
}

/** Terminates the winners threads (tests, shutdown). */
export async function closeWinnersThreads(): Promise<void> {
  const all = threads.splice(0);
  await Promise.all(all.map((t) => t.worker.terminate()));
}
