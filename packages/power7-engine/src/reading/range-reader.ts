import { closeSync, openSync, readSync } from 'node:fs';
import { EngineError } from '../core/errors';
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
  /**
   * Count the range's tickets into this 6-subset table (one the reading thread has to itself), and
   * return their colex ranks: the count tables' first step, done on tickets just read (`CountedTickets`).
   */
  countInto?: Uint32Array;
}

/**
 * A range's rows, or why the file must be read in one pass instead: a quote (a quoted field may hold
 * a line break, so a range boundary could fall inside it) or an error, which the one-pass reader
 * then reports with its exact line number.
 */
export type RangeResult = { part: TicketPart; ranks?: Uint32Array } | { onePass: string };

const QUOTE = 0x22;

/** Reads and validates one range (synchronously: it runs on a worker thread). */
export function readRange(req: RangeRequest): RangeResult {
  const reader = new TicketReader(
    {
      pool: req.pool,
      keepRejected: true,
      ...(req.fastPath === false ? { fastPath: false } : {}),
      ...(req.maxRecordBytes ? { maxRecordBytes: req.maxRecordBytes } : {}),
    },
    { setup: req.setup, startOffset: req.start },
  );
  const fd = req.bytes ? null : openSync(req.path!, 'r');
  try {
    for (const chunk of fd === null ? [req.bytes!] : fileChunks(fd, req.start, req.end)) {
      if (chunk.indexOf(QUOTE) !== -1) return { onePass: 'quoted fields' };
      reader.push(chunk);
    }
    const part = reader.endPart();
    if (!req.countInto) return { part };
    const ranks = new Uint32Array(part.count);
    countWhileReading(part.tickets, part.count, req.countInto, ranks);
    return { part, ranks };
  } catch (err) {
    if (err instanceof EngineError) return { onePass: err.message };
    throw err;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Bytes [start, end) of a file, 1 MiB at a time. */
function* fileChunks(fd: number, start: number, end: number): Generator<Buffer> {
  // one buffer for every read: the tokenizer copies the bytes of a record it carries over
  const buf = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(1, end - start)));
  for (let pos = start; pos < end;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (n === 0) break;
    yield buf.subarray(0, n);
    pos += n;
  }
}
