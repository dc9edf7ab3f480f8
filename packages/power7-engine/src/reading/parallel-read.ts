import { open } from 'node:fs/promises';
import { throwIfAborted } from '../core/errors';
import type { Worker } from 'node:worker_threads';
import type { RangeRequest, RangeResult } from './range-reader';
import { CountingRead } from './counting-read';
import { PartJoiner } from './part-joiner';
import type { RejectedRow } from '../core/errors';
import {
  TicketReader,
  type BodySetup,
  type ReadOptions,
  type TicketFile,
  type TicketPart,
} from './ticket-reader';
import { readRangeOnWorker, releaseWorkers, takeWorkers } from '../parallel/workers';

const LF = 0x0a;
const QUOTE = 0x22;

/** The first bytes, read on this thread: the header and the first rows, up to their last line end. */
export const HEAD_BYTES = 1 << 20;

export interface ParallelReadOptions {
  /** Worker threads that read (2 or more). */
  workers: number;
  /** Bytes per range (default: the file split in 4 per worker, 4–32 MiB each); tests use small ones. */
  rangeBytes?: number;
  /**
   * Bytes read on this thread first, for the header and the first rows (default `HEAD_BYTES`). Less
   * hands the ranges out sooner when this thread's reader is cold (the CLI: one read per process);
   * the header must end within them, else the file is read in one pass.
   */
  headBytes?: number;
  /**
   * Also count the tickets for an analysis of this pool as they are read (`TicketFile.counted`): each
   * worker counts the range it has just read while its tickets are in its cache, and the analysis
   * starts with its 6-subsets counted (the CLI). Unset: nothing is counted.
   */
  count?: boolean;
}

/**
 * Reads a CSV in byte ranges on worker threads: the header and first rows here, the rest split at line
 * ends and handed out range by range, then joined in file order (line numbers and offsets as a
 * one-pass read gives them). The same tickets, rejected rows and errors as `readCsvTickets`, in about
 * 1/n of its time. Null when the file must be read in one pass: it holds a quote (a quoted field may
 * span lines), or a range met an error (the one-pass reader reports it with its exact line).
 */
export async function readCsvInParallel(
  path: string,
  size: number,
  opts: ReadOptions,
  parallel: ParallelReadOptions,
): Promise<TicketFile | null> {
  const fh = await open(path, 'r');
  let headEnd: number;
  let boundaries: number[];
  // The head's rejected rows are held back with the ranges': if the file turns out to need a one-pass
  // read, that read reports every row, and none may be reported twice.
  const { onRejected: _heldBack, ...headOpts } = opts;
  const reader = new TicketReader({ ...headOpts, keepRejected: true });
  try {
    const step = rangeBytesFor(size, parallel);
    const headBytes = parallel.headBytes ?? HEAD_BYTES;
    const head = Buffer.allocUnsafe(Math.min(headBytes, Math.max(step, 32), size));
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    headEnd = head.lastIndexOf(LF, bytesRead - 1) + 1;
    if (headEnd === 0 || head.subarray(0, bytesRead).indexOf(QUOTE) !== -1) return null;
    reader.push(head.subarray(0, headEnd));
    if (!reader.setup) return null;
    boundaries = await lineStarts(fh, headEnd, size, step);
  } finally {
    await fh.close();
  }
  const setup = reader.setup;
  const headPart = reader.endPart();
  const ranges: RangeRequest[] = boundaries.slice(0, -1).map((start, i) => ({
    path,
    start,
    end: boundaries[i + 1]!,
    setup,
    pool: opts.pool,
    ...(opts.fastPath === false ? { fastPath: false } : {}),
    ...(opts.maxRecordBytes ? { maxRecordBytes: opts.maxRecordBytes } : {}),
  }));

  // joined in file order as they come (this thread waits for the workers meanwhile)
  const joined = new JoinAsRead(setup, opts, headPart, headEnd, size);
  let onePass = false;
  let bytesDone = headEnd;
  const workers = takeWorkers(Math.min(parallel.workers, Math.max(1, ranges.length)));
  // the head is counted here first: into a table no range counts into until it is done
  const counting = parallel.count ? new CountingRead(opts.pool, workers.length) : null;
  counting?.countHead(headPart);
  let clean = false;
  try {
    await readRanges(workers, ranges, opts.signal, counting, (i, result) => {
      if ('onePass' in result) {
        onePass = true;
        return false;
      }
      joined.add(i, result.part);
      bytesDone += ranges[i]!.end - ranges[i]!.start;
      opts.onBytes?.(bytesDone);
      return true;
    });
    clean = true;
  } finally {
    releaseWorkers(workers, clean);
  }
  throwIfAborted(opts.signal);
  if (onePass) return null;
  const file = joined.end();
  const counted = counting?.result(ranges.length + 1, file.count);
  return counted ? { ...file, counted } : file;
}

/**
 * The parts of a parallel read joined in file order as they are read (`PartJoiner`: the head first,
 * then range i as `addAt(i)`), their rejected rows told to `onRejected` only at `end`: a read that
 * turns out to need one pass must not have told of any (that read tells of every row).
 */
class JoinAsRead {
  private readonly joiner: PartJoiner;
  private readonly held: RejectedRow[] = [];

  constructor(
    setup: BodySetup,
    private readonly opts: ReadOptions,
    head: TicketPart,
    headEnd: number,
    size: number,
  ) {
    // the head's rows tell how many tickets a file of this size holds: room made once, mostly
    const perRow = headEnd / Math.max(1, head.linesRead);
    const expectedTickets = Math.ceil((size / perRow) * 1.02);
    const holding = { ...opts, onRejected: (r: RejectedRow) => void this.held.push(r) };
    this.joiner = new PartJoiner(setup, holding, { expectedTickets, report: true });
    this.joiner.add(head);
  }

  /** Range `index`'s part, joined once every range before it is in. */
  add(index: number, part: TicketPart): void {
    this.joiner.addAt(index, part);
  }

  /** The joined file (every part added), its rejected rows told in file order first. */
  end(): TicketFile {
    for (const r of this.held) this.opts.onRejected?.(r);
    return this.joiner.end();
  }
}

/**
 * Reads the byte ranges on the workers, each worker taking the next range as it finishes one (with a
 * table of `counting` to count its tickets into, when counting); `onResult(i, …)` gets range i's
 * result. Stops handing out ranges once `onResult` returns false.
 */
async function readRanges(
  workers: Worker[],
  ranges: RangeRequest[],
  signal: AbortSignal | undefined,
  counting: CountingRead | null,
  onResult: (index: number, result: RangeResult) => boolean,
): Promise<void> {
  let next = 0;
  let stop = false;
  await Promise.all(
    workers.map(async (worker) => {
      while (!stop && next < ranges.length) {
        const index = next++;
        const table = counting?.take();
        try {
          const range = ranges[index]!;
          const result = await readRangeOnWorker(
            worker,
            table ? { ...range, countInto: table } : range,
            signal,
          );
          // part 0 is the head
          if (table) counting!.done(table, index + 1, 'part' in result ? result.ranks : undefined);
          if (!onResult(index, result)) stop = true;
        } catch (err) {
          stop = true;
          throw err;
        }
      }
    }),
  );
}

function rangeBytesFor(bytes: number, parallel: ParallelReadOptions): number {
  if (parallel.rangeBytes) return parallel.rangeBytes;
  const even = Math.ceil(bytes / (parallel.workers * 4));
  return Math.min(32 << 20, Math.max(4 << 20, even));
}

/**
 * Range boundaries from `from` to `size`, each nominal cut moved to just after the next line end
 * (a cut without a line end within 64 KiB after it is dropped: its range runs on to the next one).
 */
async function lineStarts(
  fh: Awaited<ReturnType<typeof open>>,
  from: number,
  size: number,
  step: number,
): Promise<number[]> {
  const out = [from];
  const window = Buffer.allocUnsafe(1 << 16);
  for (let cut = from + step; cut < size; cut += step) {
    if (cut <= out.at(-1)!) continue;
    const { bytesRead } = await fh.read(window, 0, window.length, cut - 1);
    const lf = window.subarray(0, bytesRead).indexOf(LF);
    if (lf === -1) continue;
    const start = cut - 1 + lf + 1;
    if (start < size && start > out.at(-1)!) out.push(start);
  }
  out.push(size);
  return out;
}
