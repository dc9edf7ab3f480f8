/**
 * Reading a customer file, by job: `file-sniff.ts` (what the first bytes show), `file-columns.ts`
 * (which columns hold what), `row-numbers.ts` (one row's numbers), `ticket-reader.ts` (CSV bytes →
 * tickets and rejected rows), `xlsx-reader.ts` (an XLSX's first sheet as CSV bytes).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { formatError, sniffFile } from './file-sniff';
import { readCsvInParallel, type ParallelReadOptions } from './parallel-read';
import { readCsvTickets, type ReadOptions, type TicketFile } from './ticket-reader';
import { xlsxAsCsv, type XlsxReadOptions } from './xlsx-reader';

/** Chunks of a file, 1 MiB at a time. */
export function fileChunks(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 1 << 20 });
}

/**
 * Reads a customer file from disk, CSV or XLSX (decided by content). For XLSX, `offsets` refer to the
 * CSV form produced by `xlsxAsCsv` (pass `csvCopy` to receive it, e.g. for a session folder).
 */
/** Below this, a CSV is read in one pass: handing out ranges would cost more than it saves. */
const PARALLEL_MIN_BYTES = 8 << 20;

export async function readCustomerFile(
  path: string,
  opts: ReadOptions & {
    csvCopy?: (chunk: Buffer) => void;
    /** Limits and scratch folder of an XLSX read (its signal is `signal`). */
    xlsx?: Omit<XlsxReadOptions, 'signal'>;
    /** Read a large CSV in byte ranges on this many worker threads (1 or unset: one pass here). */
    parallel?: ParallelReadOptions & { minBytes?: number };
  },
): Promise<TicketFile & { format: 'csv' | 'xlsx' }> {
  const format = await sniffFile(path);
  if (format === 'empty' || format === 'binary') throw formatError(format);
  if (format === 'xlsx') {
    const copy = opts.csvCopy;
    const sheet = xlsxAsCsv(path, {
      ...opts.xlsx,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const src = copy
      ? (async function* () {
          for await (const c of sheet) {
            copy(c);
            yield c;
          }
        })()
      : sheet;
    return { ...(await readCsvTickets(src, opts)), format };
  }
  const parallel = opts.parallel;
  if (parallel && parallel.workers > 1) {
    const { size } = await stat(path);
    if (size >= (parallel.minBytes ?? PARALLEL_MIN_BYTES)) {
      const file = await readCsvInParallel(path, size, opts, parallel);
      if (file) return { ...file, format };
    }
  }
  return { ...(await readCsvTickets(fileChunks(path), opts)), format };
}
