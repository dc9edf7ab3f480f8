import { parentPort, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../core/errors';
import type { MatchType } from '../core/model';
import {
  SEGMENT,
  WinnersCsvWriter,
  winnersInOrder,
  type WinnerOrder,
  type WinnersSource,
} from '../analysis/winners-csv';
import { buildTicketLookup, type TicketLookup } from '../analysis/ticket-lookup';
import { RowReader } from '../analysis/winners';
import {
  buildDrawIndex,
  buildSortOrder,
  type DrawIndex,
  type IndexedQuery,
} from '../core/draw-index';
import { scanPart, type ScannedPart } from '../core/draw-index-scan';
import { walkPositions } from '../core/draw-index-answers';
import type { QueryContext } from '../core/draw-query';

/**
 * A request to a winners thread, answered on its own `port`: the winners of a draw in download order
 * (`find`), or the CSV of winners already found (`csv`), sent as chunks the caller acknowledges.
 */
export type WinnersRequest =
  | {
      kind: 'find';
      port: MessagePort;
      source: WinnersSource;
      numbers: number[];
      matchType: MatchType | 'all';
    }
  | {
      kind: 'csv';
      port: MessagePort;
      source: WinnersSource;
      numbers: number[];
      order: WinnerOrder;
      /** Only segments first, first + step, … of SEGMENT winners (a download shared by threads). */
      share?: { first: number; step: number };
    }
  | { kind: 'lookup'; port: MessagePort; source: WinnersSource }
  /** The fields of rows `indexes` (ticket indexes, ascending): a winners page. */
  | { kind: 'rows'; port: MessagePort; source: WinnersSource; indexes: Uint32Array }
  /** The filter index of a session's qualifying draws (shared memory in, shared memory out). */
  | { kind: 'drawIndex'; port: MessagePort; ctx: QueryContext }
  /**
   * Words [wordFrom, wordTo) of a filter's run scanned; `stop[0]` set to 1 by the caller cancels it
   * (the scan asks every 64K draws).
   */
  | {
      kind: 'scanIndex';
      port: MessagePort;
      index: DrawIndex;
      w: ArrayLike<number>;
      q: IndexedQuery;
      wordFrom: number;
      wordTo: number;
      stop: Int32Array;
      /** Only how many draws pass (no page rows). */
      countOnly: boolean;
    }
  /** Positions of a filter index in a sort's order (`buildSortOrder`), into shared memory. */
  | { kind: 'sortOrder'; port: MessagePort; index: DrawIndex; key: number }
  /** A filter's page walked in its sort's order (`walkPositions`; `order` null: the index's own). */
  | {
      kind: 'walkIndex';
      port: MessagePort;
      index: DrawIndex;
      w: ArrayLike<number>;
      q: IndexedQuery;
      matched: number;
      order: Uint32Array | null;
      maxSteps: number;
    };

/** What comes back on a request's port; the caller sends `'more'` for each chunk it has taken. */
export type WinnersReply =
  | { type: 'found'; order: WinnerOrder }
  | { type: 'lookup'; lookup: TicketLookup }
  | { type: 'rows'; rows: string[][] }
  | { type: 'drawIndex'; index: DrawIndex | null }
  | { type: 'scanned'; part: ScannedPart }
  | { type: 'sortOrder'; order: Uint32Array }
  /** The page's positions (null: the walk was longer than allowed). */
  | { type: 'walked'; positions: number[] | null }
  | { type: 'chunk'; chunk: Uint8Array }
  /** The end of one segment of a shared download. */
  | { type: 'segment' }
  | { type: 'end' }
  | { type: 'error'; code?: string; message: string; field?: string };

/** Chunks sent ahead of the caller's acknowledgements: memory stays a few chunks per download. */
export const CHUNKS_AHEAD = 4;

/** Serves one CSV request: chunks go out while fewer than CHUNKS_AHEAD wait; `cancel` stops it. */
async function sendCsv(req: Extract<WinnersRequest, { kind: 'csv' }>) {
  const { port, share } = req;
  let unacked = 0;
  let cancelled = false;
  let wake: (() => void) | null = null;
  port.on('message', (msg: 'more' | 'cancel') => {
    if (msg === 'more') unacked--;
    else cancelled = true;
    wake?.();
    wake = null;
  });
  const n = req.order.index.length;
  const writer = new WinnersCsvWriter(req.source, req.numbers, req.order);
  try {
    const step = share?.step ?? 1;
    const size = share ? SEGMENT : Math.max(n, 1);
    for (let s = share?.first ?? 0; s * size < Math.max(n, 1) && !cancelled; s += step) {
      for (const chunk of writer.range(s * size, Math.min(n, (s + 1) * size))) {
        port.postMessage({ type: 'chunk', chunk } satisfies WinnersReply, [
          chunk.buffer as ArrayBuffer,
        ]);
        unacked++;
        while (unacked >= CHUNKS_AHEAD && !cancelled) await new Promise<void>((r) => (wake = r));
        if (cancelled) break;
      }
      if (share) port.postMessage({ type: 'segment' } satisfies WinnersReply);
    }
  } finally {
    writer.close();
  }
  port.postMessage({ type: 'end' } satisfies WinnersReply);
}

async function handle(req: WinnersRequest) {
  try {
    if (req.kind === 'find') {
      const order = winnersInOrder(req.source, req.numbers, req.matchType);
      req.port.postMessage({ type: 'found', order } satisfies WinnersReply, [
        order.index.buffer as ArrayBuffer,
        order.matches.buffer as ArrayBuffer,
      ]);
    } else if (req.kind === 'lookup') {
      const { tickets, masks } = req.source;
      const lookup = buildTicketLookup(tickets, masks.lo.length, true);
      req.port.postMessage({ type: 'lookup', lookup } satisfies WinnersReply);
    } else if (req.kind === 'rows') {
      const { rowsPath, delimiter, offsets, lengths } = req.source;
      const rows = new RowReader(rowsPath, delimiter, offsets, lengths).rowsSync(req.indexes);
      req.port.postMessage({ type: 'rows', rows } satisfies WinnersReply);
    } else if (req.kind === 'drawIndex') {
      const index = buildDrawIndex(req.ctx, (bytes) => new SharedArrayBuffer(bytes));
      req.port.postMessage({ type: 'drawIndex', index } satisfies WinnersReply);
    } else if (req.kind === 'scanIndex') {
      const { index, w, q, wordFrom, wordTo, stop, countOnly } = req;
      const stopped = () => Atomics.load(stop, 0) === 1;
      const part = scanPart(index, w, q, wordFrom, wordTo, stopped, countOnly);
      req.port.postMessage({ type: 'scanned', part } satisfies WinnersReply, [
        part.positions.buffer as ArrayBuffer,
      ]);
    } else if (req.kind === 'walkIndex') {
      const { index, w, q, matched, order, maxSteps } = req;
      const positions = walkPositions(index, w, q, matched, order, maxSteps);
      req.port.postMessage({ type: 'walked', positions } satisfies WinnersReply);
    } else if (req.kind === 'sortOrder') {
      const order = buildSortOrder(req.index, req.key, (bytes) => new SharedArrayBuffer(bytes));
      req.port.postMessage({ type: 'sortOrder', order } satisfies WinnersReply);
    } else await sendCsv(req);
  } catch (err) {
    const e = err as Error;
    req.port.postMessage({
      type: 'error',
      message: e.message,
      ...(e instanceof EngineError ? { code: e.code, field: e.field } : {}),
    } satisfies WinnersReply);
  } finally {
    req.port.close();
  }
}

const port = parentPort;
if (!port) throw new Error('winners-worker.ts must run in a worker thread');
port.on('message', (req: WinnersRequest) => void handle(req));
