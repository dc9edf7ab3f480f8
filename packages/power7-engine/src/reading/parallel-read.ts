import { open } from 'node:fs/promises';
import { throwIfAborted } from '../core/errors';
import type { Worker } from 'node:worker_threads';
import type { RangeRequest, RangeResult } from './range-reader';
import { CountingRead } from './counting-read';
import { PartJoiner } from './part-joiner';
import { PICK } from '../core/model';
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
  /**
   * Bytes per range (default: ranges that shrink as the file is handed out, see `guidedCuts`); tests
   * use small ones.
   */
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
    const headBytes = parallel.headBytes ?? HEAD_BYTES;
    const head = Buffer.allocUnsafe(
      Math.min(headBytes, Math.max(parallel.rangeBytes ?? headBytes, 32), size),
    );
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    headEnd = head.lastIndexOf(LF, bytesRead - 1) + 1;
    if (headEnd === 0 || head.subarray(0, bytesRead).indexOf(QUOTE) !== -1) return null;
    reader.push(head.subarray(0, headEnd));
    if (!reader.setup) return null;
    const cuts = parallel.rangeBytes
      ? evenCuts(headEnd, size, parallel.rangeBytes)
      : guidedCuts(headEnd, size, parallel.workers);
    boundaries = await lineStarts(fh, headEnd, size, cuts);
  } finally {
    await fh.close();
  }
  const setup = reader.setup;
  const headPart = reader.endPart();
  // the head's rows tell how many a range holds: room made once, mostly
  const rowBytes = headEnd / Math.max(1, headPart.linesRead);
  const ranges: RangeRequest[] = boundaries.slice(0, -1).map((start, i) => ({
    path,
    start,
    end: boundaries[i + 1]!,
    setup,
    pool: opts.pool,
    expectedRows: Math.ceil(((boundaries[i + 1]! - start) / rowBytes) * 1.05) + 64,
    ...(opts.fastPath === false ? { fastPath: false } : {}),
    ...(opts.maxRecordBytes ? { maxRecordBytes: opts.maxRecordBytes } : {}),
    ...(opts.rows === false ? { rows: false } : {}),
  }));

  // joined in file order as they come (this thread waits for the workers meanwhile)
  const joined = new JoinAsRead(setup, opts, headPart, headEnd, size);
  let onePass = false;
  let bytesDone = headEnd;
  const workers = takeWorkers(Math.min(parallel.workers, Math.max(1, ranges.length)));
  // the head's tickets are counted by the worker that reads the first range, with that range (here,
  // cold, they held up the ranges by 30–60 ms while the workers were ready)
  const counting = parallel.count
    ? {
        read: new CountingRead(opts.pool, workers.length),
        head: headPart.tickets.slice(0, headPart.count * PICK),
      }
    : null;
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
  const counted = counting?.read.result(ranges.length + 1, file.count);
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
 * table of `counting` to count its tickets into, when counting, and the head's tickets with the
 * first range); `onResult(i, …)` gets range i's result. Stops handing out ranges once `onResult`
 * returns false.
 */
async function readRanges(
  workers: Worker[],
  ranges: RangeRequest[],
  signal: AbortSignal | undefined,
  counting: { read: CountingRead; head: Uint8Array } | null,
  onResult: (index: number, result: RangeResult) => boolean,
): Promise<void> {
  let next = 0;
  let stop = false;
  await Promise.all(
    workers.map(async (worker) => {
      while (!stop && next < ranges.length) {
        const index = next++;
        const table = counting?.read.take();
        try {
          const range = ranges[index]!;
          const result = await readRangeOnWorker(
            worker,
            table
              ? {
                  ...range,
                  countInto: table,
                  ...(index === 0 ? { countAlso: counting!.head } : {}),
                }
              : range,
            signal,
          );
          // part 0 is the head
          const read = 'part' in result ? result : null;
          if (table) counting!.read.done(table, index + 1, read?.ranks);
          if (read?.alsoRanks) counting!.read.headCounted(read.alsoRanks);
          if (!onResult(index, result)) stop = true;
        } catch (err) {
          stop = true;
          throw err;
        }
      }
    }),
  );
}

/** Nominal cuts every `step` bytes from `from` to `size`. */
function evenCuts(from: number, size: number, step: number): number[] {
  const cuts: number[] = [];
  for (let cut = from + step; cut < size; cut += step) cuts.push(cut);
  return cuts;
}

/**
 * Nominal cuts for `workers` threads that take the ranges one after another: each range a quarter of
 * what is left per thread (1–32 MiB), so the first ones are long and the last ones short, and the
 * threads finish within a short range of each other (with ranges of one size, one thread read on
 * alone through its last range while the other waited: ~60 ms of a 56 MB file).
 */
export function guidedCuts(from: number, size: number, workers: number): number[] {
  const cuts: number[] = [];
  for (let at = from; ;) {
    const step = Math.min(32 << 20, Math.max(1 << 20, Math.ceil((size - at) / (2 * workers))));
    at += step;
    if (at >= size) return cuts;
    cuts.push(at);
  }
}

/**
 * Range boundaries from `from` to `size`, each nominal cut (ascending) moved to just after the next
 * line end (a cut without a line end within 64 KiB after it is dropped: its range runs on to the
 * next one).
 */
async function lineStarts(
  fh: Awaited<ReturnType<typeof open>>,
  from: number,
  size: number,
  cuts: number[],
): Promise<number[]> {
  const out = [from];
  const window = Buffer.allocUnsafe(1 << 16);
  for (const cut of cuts) {
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
