import { closeSync, openSync, readSync } from 'node:fs';
import { EngineError } from './errors';
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
}

/**
 * A range's rows, or why the file must be read in one pass instead: a quote (a quoted field may hold
 * a line break, so a range boundary could fall inside it) or an error, which the one-pass reader
 * then reports with its exact line number.
 */
export type RangeResult = { part: TicketPart } | { onePass: string };

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
  if (req.bytes) return readBytes(reader, req.bytes);
  const fd = openSync(req.path!, 'r');
  try {
    // one buffer for every read: the tokenizer copies the bytes of a record it carries over
    const buf = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(1, req.end - req.start)));
    for (let pos = req.start; pos < req.end;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, req.end - pos), pos);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      if (chunk.indexOf(QUOTE) !== -1) return { onePass: 'quoted fields' };
      reader.push(chunk);
      pos += n;
    }
    return { part: reader.endPart() };
  } catch (err) {
    if (err instanceof EngineError) return { onePass: err.message };
    throw err;
  } finally {
    closeSync(fd);
  }
}

/** A range handed over as bytes: the same checks as one read from the file. */
function readBytes(reader: TicketReader, bytes: Uint8Array): RangeResult {
  if (bytes.indexOf(QUOTE) !== -1) return { onePass: 'quoted fields' };
  try {
    reader.push(bytes);
    return { part: reader.endPart() };
  } catch (err) {
    if (err instanceof EngineError) return { onePass: err.message };
    throw err;
  }
}
