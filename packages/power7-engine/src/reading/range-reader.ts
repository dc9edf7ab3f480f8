import { closeSync, openSync, readSync } from 'node:fs';
import { EngineError } from '../core/errors';
import { PICK } from '../core/model';
import { countWhileReading } from '../core/tables';
import { TicketReader, type BodySetup, type TicketPart } from './ticket-reader';

/**
 * One byte range of a CSV for a worker to read: it starts right after a line end. The bytes are read
 * from `path`, or handed over in `bytes` (a file still arriving: shared memory, so not copied).
 */
export interface RangeRequest {
  path?: string;
  bytes?: Uint8Array;
  start: number;
  end: number;
  setup: BodySetup;
  pool: number;
  fastPath?: boolean;
  maxRecordBytes?: number;
  /** Keep each ticket's line, offset and length (default true; `ReadOptions.rows`). */
  rows?: boolean;
  /**
   * Count the range's tickets into this 6-subset table (one the reading thread has to itself), and
   * return their colex ranks: the count tables' first step, done on tickets just read (`CountedTickets`).
   */
  countInto?: Uint32Array;
  /**
   * The rows the range is expected to hold (its bytes over the head's bytes per row): the reader
   * makes room for them at once instead of growing its arrays while it reads.
   */
  expectedRows?: number;
  /**
   * More tickets to count into `countInto` after the range's own (7 numbers each): the head of the
   * file, read on the main thread, counted here with the first range (`alsoRanks` their ranks).
   */
  countAlso?: Uint8Array;
}

/**
 * A range's rows, or why the file must be read in one pass instead: a quote (a quoted field may hold
 * a line break, so a range boundary could fall inside it) or an error, which the one-pass reader
 * then reports with its exact line number.
 */
export type RangeResult =
  | { part: TicketPart; ranks?: Uint32Array; alsoRanks?: Uint32Array }
  | { onePass: string };

const QUOTE = 0x22;
const LF = 0x0a;

/** Reads and validates one range (synchronously: it runs on a worker thread). */
export function readRange(req: RangeRequest): RangeResult {
  const reader = new TicketReader(
    {
      pool: req.pool,
      keepRejected: true,
      ...(req.fastPath === false ? { fastPath: false } : {}),
      ...(req.maxRecordBytes ? { maxRecordBytes: req.maxRecordBytes } : {}),
      ...(req.rows === false ? { rows: false } : {}),
    },
    {
      setup: req.setup,
      startOffset: req.start,
      ...(req.expectedRows ? { expectedRows: req.expectedRows } : {}),
    },
  );
  const fd = req.bytes ? null : openSync(req.path!, 'r');
  try {
    for (const chunk of fd === null ? [req.bytes!] : fileChunks(fd, req.start, req.end)) {
      if (chunk.indexOf(QUOTE) !== -1) return { onePass: 'quoted fields' };
      reader.pushPlain(chunk);
    }
    const part = reader.endPart();
    if (!req.countInto) return { part };
    const ranks = new Uint32Array(part.count);
    countWhileReading(part.tickets, part.count, req.countInto, ranks);
    if (!req.countAlso) return { part, ranks };
    const alsoRanks = new Uint32Array(Math.floor(req.countAlso.length / PICK));
    countWhileReading(req.countAlso, alsoRanks.length, req.countInto, alsoRanks);
    return { part, ranks, alsoRanks };
  } catch (err) {
    if (err instanceof EngineError) return { onePass: err.message };
    throw err;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Bytes [start, end) of a file, up to 1 MiB at a time, each chunk but the last cut after its last
 * line end (the rest is read again at the start of the next one; a chunk without a line end goes
 * whole). The tokenizer then meets whole lines only: an unfinished last line sent it down its general
 * path, which its optimised loop had never run, and V8 threw that code away and compiled the tokenizer
 * again, once or twice per thread.
 */
function* fileChunks(fd: number, start: number, end: number): Generator<Buffer> {
  // one buffer for every read (each chunk is tokenized before the next read)
  const buf = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(1, end - start)));
  for (let pos = start; pos < end;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (n === 0) break;
    const lf = pos + n < end ? buf.lastIndexOf(LF, n - 1) : -1;
    const take = lf === -1 ? n : lf + 1;
    yield buf.subarray(0, take);
    pos += take;
  }
}
