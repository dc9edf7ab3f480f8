import type { Worker } from 'node:worker_threads';
import { CancelledError, type RejectedRow } from '../core/errors';
import { HEAD_BYTES } from './parallel-read';
import type { RangeRequest } from './range-reader';
import { PartJoiner } from './part-joiner';
import { TicketReader, type TicketFile, type TicketPart } from './ticket-reader';
import { readRangeOnWorker, releaseWorkers, takeWorkers } from '../parallel/workers';
import { CountingRead } from './counting-read';

const LF = 0x0a;
const QUOTE = 0x22;

export interface ArrivingReadOptions {
  /** Pool size P: rows with numbers outside 1..P are rejected. */
  pool: number;
  /** Ranges read at the same time, one worker thread each. */
  workers: number;
  /** Nominal bytes per range (default 2 MiB: the last range, read once the file has ended, is what the job may wait for). */
  rangeBytes?: number;
  /** Bytes read here first, for the header (default 1 MiB, as a parallel read of a file; tests: less). */
  headBytes?: number;
  /** The file's expected size (e.g. the request's length), to size the joined arrays once. */
  expectedBytes?: number;
  /** Bytes received and not yet read beyond which `push` asks the sender to wait (default 64 MiB). */
  maxUnreadBytes?: number;
  /** Also count the tickets for an analysis of this pool as they arrive (`TicketFile.counted`). */
  count?: boolean;
}

/** A CSV read while it arrived: what `readCustomerFile` gives for it, and every rejected row. */
export interface ArrivedRead {
  pool: number;
  file: TicketFile & { format: 'csv' };
  /** Every rejected row, in file order, with its line in the file (`file.rejected` keeps 100). */
  rejected: RejectedRow[];
}

/**
 * Reads a CSV while its bytes arrive (an upload being received), so that the read is done when the
 * upload is: the header and first rows here, then byte ranges cut at line ends as the bytes pass and
 * each handed to a worker thread as soon as it is complete (in shared memory, not through the disk).
 * The same checks and results as `readCsvInParallel` (in smaller ranges: the last one is what is left
 * to read when the upload ends). What that read leaves to one pass (a quote in the file, a range that
 * meets an error), a file without one valid row, or one shorter than the head ends it with null: the
 * file is then read from disk as usual, which reports every error with its exact line.
 */
export class ArrivingCsvRead {
  private readonly step: number;
  private readonly maxUnread: number;
  private readonly headLimit: number;
  private readonly controller = new AbortController();
  private head: Buffer[] = [];
  private headBytes = 0;
  /** Joins the parts in file order as they are read (the head's first): done when the last is. */
  private joiner: PartJoiner | null = null;
  /** The count tables' first step, when asked for. */
  private counting: CountingRead | null = null;
  private readonly rejected: RejectedRow[] = [];
  /** Bytes after the last cut, and the file offset they start at. */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private tailStart = 0;
  private nextCut = 0;
  private readonly queue: { index: number; range: RangeRequest }[] = [];
  private ranges = 0;
  private reading = 0;
  /** Bytes handed to ranges and not yet read. */
  private unread = 0;
  private ended = false;
  /** Why this read gave up (the file is then read from disk). */
  private gaveUp: string | null = null;
  private waiters: (() => void)[] = [];

  constructor(private readonly opts: ArrivingReadOptions) {
    this.step = opts.rangeBytes ?? 2 << 20;
    this.maxUnread = opts.maxUnreadBytes ?? 64 << 20;
    this.headLimit = opts.headBytes ?? HEAD_BYTES;
  }

  /**
   * The next bytes of the file. Returns a promise when too much is waiting to be read: the sender
   * should wait for it (the upload then slows to the pace of the read instead of filling memory).
   */
  push(chunk: Buffer): Promise<void> | undefined {
    if (this.gaveUp || this.ended) return undefined;
    if (!this.joiner) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes >= this.headLimit) this.readHead();
      return undefined;
    }
    this.cut(chunk);
    return this.unread > this.maxUnread ? this.settled() : undefined;
  }

  /** The file has ended: resolves when every range is read, with the tickets, or null. */
  async end(): Promise<ArrivedRead | null> {
    if (!this.ended) {
      this.ended = true;
      if (!this.joiner && !this.gaveUp) this.giveUp('shorter than the head');
      if (this.tailBytes > 0) this.dispatch(this.tailStart + this.tailBytes);
    }
    while (this.reading > 0 || (this.queue.length > 0 && !this.gaveUp)) await this.settled();
    if (this.gaveUp || !this.joiner) return null;
    try {
      const file = this.joiner.end();
      const counted = this.counting?.result(this.ranges + 1, file.count);
      return {
        pool: this.opts.pool,
        file: { ...file, format: 'csv', ...(counted ? { counted } : {}) },
        rejected: this.rejected,
      };
    } catch {
      // no valid row: the read from disk reports it (with the rejected-rows report)
      return null;
    }
  }

  /** Stops reading (the upload failed): ranges under way are dropped with their workers. */
  abort(): void {
    this.giveUp('aborted');
    this.controller.abort();
  }

  private readHead(): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    // the head ends at its last line end within the limit; the rest (a large chunk) goes to ranges
    const headEnd = head.lastIndexOf(LF, this.headLimit - 1) + 1;
    if (headEnd === 0 || head.subarray(0, headEnd).indexOf(QUOTE) !== -1) {
      return this.giveUp('quoted fields');
    }
    // the head's rejected rows are joined with the ranges' (none may be reported twice)
    const reader = new TicketReader({ pool: this.opts.pool, keepRejected: true });
    try {
      reader.push(head.subarray(0, headEnd));
    } catch {
      return this.giveUp('head');
    }
    const setup = reader.setup;
    if (!setup) return this.giveUp('no header');
    const headPart = reader.endPart();
    const { pool, expectedBytes } = this.opts;
    // the rows' bytes so far tell how many tickets a file of the expected size holds
    const perTicket = headEnd / Math.max(1, headPart.linesRead);
    const expectedTickets = expectedBytes ? Math.ceil((expectedBytes / perTicket) * 1.01) : 0;
    this.joiner = new PartJoiner(
      setup,
      { pool, keepRejected: false, onRejected: (r) => this.rejected.push(r) },
      { expectedTickets, report: true },
    );
    this.joiner.add(headPart);
    if (this.opts.count) {
      this.counting = new CountingRead(pool, Math.max(1, this.opts.workers));
      this.counting.countHead(headPart);
    }
    this.tailStart = headEnd;
    this.nextCut = headEnd + this.step;
    if (headEnd < head.length) this.cut(head.subarray(headEnd));
  }

  /** Adds bytes after the last cut and cuts a range at the first line end at or after each nominal cut. */
  private cut(chunk: Buffer): void {
    for (;;) {
      const chunkStart = this.tailStart + this.tailBytes;
      const from = Math.max(0, this.nextCut - 1 - chunkStart);
      const lf = from < chunk.length ? chunk.indexOf(LF, from) : -1;
      if (lf === -1) {
        this.tail.push(chunk);
        this.tailBytes += chunk.length;
        return;
      }
      this.tail.push(chunk.subarray(0, lf + 1));
      this.tailBytes += lf + 1;
      this.dispatch(chunkStart + lf + 1);
      this.nextCut = this.tailStart + this.step;
      chunk = chunk.subarray(lf + 1);
      if (chunk.length === 0) return;
    }
  }

  /** Hands the bytes from the last cut to `end` to a worker, in memory every worker can see. */
  private dispatch(end: number): void {
    const bytes = new Uint8Array(new SharedArrayBuffer(this.tailBytes));
    let at = 0;
    for (const c of this.tail) {
      bytes.set(c, at);
      at += c.length;
    }
    const range: RangeRequest = {
      bytes,
      start: this.tailStart,
      end,
      setup: this.joiner!.setup,
      pool: this.opts.pool,
    };
    this.queue.push({ index: this.ranges++, range });
    this.unread += this.tailBytes;
    this.tail = [];
    this.tailBytes = 0;
    this.tailStart = end;
    this.pump();
  }

  private pump(): void {
    while (!this.gaveUp && this.reading < Math.max(1, this.opts.workers) && this.queue.length > 0) {
      const { index, range } = this.queue.shift()!;
      this.reading++;
      const [worker] = takeWorkers(1) as [Worker];
      const table = this.counting?.take();
      readRangeOnWorker(
        worker,
        table ? { ...range, countInto: table } : range,
        this.controller.signal,
      ).then(
        (result) => {
          releaseWorkers([worker], true);
          if ('onePass' in result) this.giveUp(result.onePass);
          else {
            // part 0 is the head
            if (table) this.counting?.done(table, index + 1, result.ranks);
            this.join(index, result.part);
          }
          this.rangeDone(range);
        },
        (err: unknown) => {
          // the worker is dropped with the table it may still write to (this read has given up)
          releaseWorkers([worker], false);
          this.giveUp(err instanceof CancelledError ? 'aborted' : String(err));
          this.rangeDone(range);
        },
      );
    }
  }

  /** Joins range `index`'s part, and the ones after it that were waiting for it. */
  private join(index: number, part: TicketPart): void {
    if (!this.gaveUp) this.joiner!.addAt(index, part);
  }

  private rangeDone(range: RangeRequest): void {
    this.reading--;
    this.unread -= range.end - range.start;
    this.pump();
    this.wake();
  }

  private giveUp(why: string): void {
    if (this.gaveUp) return;
    this.gaveUp = why;
    this.head = [];
    this.tail = [];
    this.tailBytes = 0;
    this.queue.length = 0;
    this.joiner = null;
    this.counting = null;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when a range has been read (or this read has given up). */
  private settled(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
