/**
 * Reading a customer file, by job: `file-sniff.ts` (what the first bytes show), `file-columns.ts`
 * (which columns hold what), `row-numbers.ts` (one row's numbers), `ticket-reader.ts` (CSV bytes →
 * tickets and rejected rows), `xlsx-reader.ts` (an XLSX's first sheet as CSV bytes).
 */
import { createReadStream } from 'node:fs';
import { formatError, sniffFile } from './file-sniff';
import { readCsvTickets, type ReadOptions, type TicketFile } from './ticket-reader';
import { xlsxAsCsv } from './xlsx-reader';

/** Chunks of a file, 1 MiB at a time. */
export function fileChunks(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 1 << 20 });
}

/**
 * Reads a customer file from disk, CSV or XLSX (decided by content). For XLSX, `offsets` refer to the
 * CSV form produced by `xlsxAsCsv` (pass `csvCopy` to receive it, e.g. for a session folder).
 */
export async function readCustomerFile(
  path: string,
  opts: ReadOptions & { csvCopy?: (chunk: Buffer) => void },
): Promise<TicketFile & { format: 'csv' | 'xlsx' }> {
  const format = await sniffFile(path);
  if (format === 'empty' || format === 'binary') throw formatError(format);
  if (format === 'xlsx') {
    const copy = opts.csvCopy;
    const src = copy
      ? (async function* () {
          for await (const c of xlsxAsCsv(path)) {
            copy(c);
            yield c;
          }
        })()
      : xlsxAsCsv(path);
    return { ...(await readCsvTickets(src, opts)), format };
  }
  return { ...(await readCsvTickets(fileChunks(path), opts)), format };
}
