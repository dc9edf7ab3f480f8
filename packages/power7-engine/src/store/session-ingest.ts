import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { csvRow } from '@pa/contracts/csv';
import { readCustomerFile } from '../reading/customer-file';
import { EngineError, NoValidRowsError, throwIfAborted, type RejectedRow } from '../core/errors';
import { sniffFile } from '../reading/file-sniff';
import { DEFAULT_POOL, validatePool } from '../core/model';
import { ReasonCounts } from '../core/reject-reasons';
import { exists, fileIn, syncDir, syncFile, writeAtomic, writeSynced } from './session-files';
import type { IngestInput, IngestSummary, NoValidRowsSummary, ReadUpload } from './session-types';
import type { TicketFile } from '../reading/ticket-reader';

const rejectedHeader = 'line,reason,raw\r\n';
/** A rejected row's report line; its raw text is the customer's, so formulas are neutralised. */
const rejectedLine = (r: RejectedRow) => csvRow([r.line, r.reason, r.raw]);

/** The rejected rows' report lines, and their reasons counted by kind. */
class RejectedReport {
  readonly lines: string[] = [];
  readonly reasons = new ReasonCounts();

  add = (r: RejectedRow): void => {
    this.lines.push(rejectedLine(r));
    this.reasons.add(r.reason);
  };
}

/**
 * Writes the session files of a read customer file: `tickets.bin`, `rows.idx`, `rejected-rows.csv`
 * and `rows.csv` (the CSV `rowsSource` renamed into place, or the XLSX's CSV form already written and
 * synced to `rowsSource`), all fsynced in parallel and renamed, one fsync of the folder, then
 * `ingest.json` last (its presence means "ingested").
 */
async function writeIngest(
  dir: string,
  file: TicketFile & { format: 'csv' | 'xlsx' },
  rowsSource: string,
  rejected: string[],
  summary: IngestSummary,
): Promise<IngestSummary> {
  const stamp = `tmp-${process.pid}-${Date.now()}`;
  const tmp = {
    tickets: `${fileIn(dir, 'tickets')}.${stamp}`,
    rowIndex: `${fileIn(dir, 'rowIndex')}.${stamp}`,
    rejectedCsv: `${fileIn(dir, 'rejectedCsv')}.${stamp}`,
  };
  const rowsPath = fileIn(dir, 'rows');
  try {
    await Promise.all([
      writeSynced(tmp.tickets, [file.tickets]),
      writeSynced(tmp.rowIndex, [file.offsets, file.lines, file.lengths]),
      writeSynced(tmp.rejectedCsv, [rejectedHeader + rejected.join('')]),
      rowsSource === rowsPath || file.format === 'xlsx' ? null : syncFile(rowsSource),
    ]);
    await rename(tmp.tickets, fileIn(dir, 'tickets'));
    await rename(tmp.rowIndex, fileIn(dir, 'rowIndex'));
    await rename(tmp.rejectedCsv, fileIn(dir, 'rejectedCsv'));
    if (rowsSource !== rowsPath) {
      try {
        await rename(rowsSource, rowsPath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(rowsSource, rowsPath);
        await syncFile(rowsPath);
      }
    }
    await syncDir(dir);
  } catch (err) {
    await Promise.all(Object.values(tmp).map((t) => rm(t, { force: true })));
    throw err;
  }
  await writeAtomic(fileIn(dir, 'ingest'), (fh) =>
    fh.write(JSON.stringify(summary, null, 2)).then(() => undefined),
  );
  return summary;
}

/** What ingest found in a read file: the content of `ingest.json`. */
function summaryOf(
  file: TicketFile & { format: 'csv' | 'xlsx' },
  originalName: string | undefined,
  rejectedReasons: Record<string, number>,
): IngestSummary {
  const cols = file.columns;
  const h = (i: number) => (i >= 0 ? (cols.header[i] ?? null) : null);
  return {
    pool: file.pool,
    format: file.format,
    originalName: originalName ?? null,
    rowsRead: file.rowsRead,
    accepted: file.count,
    rejected: file.rejectedCount,
    columns: cols.header,
    numberColumns:
      cols.numbers.kind === 'seven'
        ? { kind: 'seven', names: cols.numbers.indexes.map((i) => cols.header[i]!) }
        : { kind: 'single', name: cols.header[cols.numbers.index]! },
    idColumn: h(cols.id),
    nameColumn: h(cols.name),
    phoneColumn: h(cols.phone),
    rejectedSample: file.rejected.slice(0, 100),
    rejectedReasons,
    delimiter: String.fromCharCode(file.delimiter),
    createdAt: new Date().toISOString(),
  };
}

/**
 * Reads the uploaded file (CSV or XLSX, detected by content, not name), validates every row and writes
 * the session folder: `rows.csv` (the rows' original text, for downloads: the CSV itself — copied, or
 * renamed with `moveSource` — or the XLSX's first sheet as CSV), `tickets.bin` (7 bytes per ticket),
 * `rows.idx`, the full `rejected-rows.csv` (`line,reason,raw`) and, last, `ingest.json`. Throws
 * `EngineError` (FILE_EMPTY, NOT_A_TABLE, XLSX_INVALID, NO_NUMBER_COLUMNS, NO_VALID_ROWS,
 * LINE_TOO_LONG, INVALID_PARAMS, CANCELLED). ~0.5 s per 1M CSV rows (one read of the file).
 */
export async function ingestFile(input: IngestInput): Promise<IngestSummary> {
  const summary = await (await readUpload(input)).saved;
  input.onProgress?.({ phase: 'done', fraction: 1, counts: { rowsRead: summary.rowsRead } });
  return summary;
}

/**
 * `ingestFile` in two steps, so an analysis need not wait for the session files: resolves as soon as
 * the file is read, with its tickets in memory and `saved`, the writing of the session folder still
 * under way (hand both to `runAnalysis` as `ingested`). Same errors; a file without one valid row has
 * its report written before this rejects. A CSV read while it arrived (`arrived`) may come with its
 * tickets counted for the analysis (`ReadUpload.counted`).
 */
export async function readUpload(input: IngestInput): Promise<ReadUpload> {
  const pool = validatePool(input.pool ?? DEFAULT_POOL);
  const dir = input.sessionDir;
  await mkdir(dir, { recursive: true });
  if (await exists(fileIn(dir, 'ingest'))) {
    throw new EngineError('INVALID_PARAMS', 'This session folder already holds an upload.');
  }
  const rowsPath = fileIn(dir, 'rows');
  let source = input.sourcePath;
  // a moved source whose run was cut off before ingest.json: its rows.csv is the source now
  if (input.moveSource && !(await exists(source)) && (await exists(rowsPath))) source = rowsPath;
  const rowsTmp = `${rowsPath}.tmp`;
  const { onProgress, signal } = input;
  const rejected = new RejectedReport();
  let rowsSource = source;
  let file;
  try {
    throwIfAborted(signal);
    const format = await sniffFile(source);
    const size = (await stat(source)).size;
    onProgress?.({ phase: 'reading', fraction: 0 });
    let rowsFh: Awaited<ReturnType<typeof open>> | null = null;
    let pendingWrite: Promise<unknown> = Promise.resolve();
    try {
      if (format === 'xlsx') {
        rowsFh = await open(rowsTmp, 'w');
        rowsSource = rowsTmp;
      } else if (format === 'csv' && !input.moveSource && source !== rowsPath) {
        await copyFile(source, rowsTmp);
        rowsSource = rowsTmp;
      }
      const rowsWriter = rowsFh;
      const arrived = format === 'csv' ? input.arrived : undefined;
      if (arrived?.pool === pool) {
        file = arrived.file;
        for (const r of arrived.rejected) rejected.add(r);
      } else
        file = await readCustomerFile(source, {
          pool,
          parallel: { workers: input.workers || availableParallelism() },
          xlsx: { ...input.xlsx, scratchParent: dir },
          ...(signal ? { signal } : {}),
          keepRejected: false,
          onRejected: rejected.add,
          onBytes: (b) =>
            onProgress?.({
              phase: 'reading',
              fraction: format === 'csv' ? Math.min(1, b / size) : 0.5,
            }),
          onRows: (n) => onProgress?.({ phase: 'reading', fraction: 0.5, counts: { rowsRead: n } }),
          ...(rowsWriter
            ? {
                csvCopy: (c: Buffer) => {
                  pendingWrite = pendingWrite.then(() => rowsWriter.write(c));
                },
              }
            : {}),
        });
      await pendingWrite;
      if (rowsFh) await rowsFh.sync();
    } finally {
      if (rowsFh) await rowsFh.close();
    }
    throwIfAborted(signal);
  } catch (err) {
    await rm(rowsTmp, { force: true });
    if (err instanceof NoValidRowsError) await writeNoValidRows(dir, err, rejected);
    throw err;
  }
  const summary = summaryOf(file, input.originalName, rejected.reasons.counts);
  const saved = writeIngest(dir, file, rowsSource, rejected.lines, summary).catch(async (err) => {
    await rm(rowsTmp, { force: true });
    throw err;
  });
  // awaited by whoever takes it; until then a failure is not an unhandled rejection
  saved.catch(() => {});
  return {
    summary,
    tickets: file.tickets,
    ...(file.counted ? { counted: file.counted } : {}),
    saved,
  };
}

/**
 * A file without one valid row still gets its rejected-rows report and its counts, so the person who
 * uploaded it can see every reason; `ingest.json` is not written (the session is not ingested).
 */
async function writeNoValidRows(
  dir: string,
  err: NoValidRowsError,
  rejected: RejectedReport,
): Promise<void> {
  await writeAtomic(fileIn(dir, 'rejectedCsv'), (fh) =>
    fh.write(rejectedHeader + rejected.lines.join('')).then(() => undefined),
  );
  const summary: NoValidRowsSummary = {
    rowsRead: err.rowsRead,
    rejected: err.rejected,
    rejectedSample: err.rejectedSample,
    rejectedReasons: rejected.reasons.counts,
  };
  await writeAtomic(fileIn(dir, 'noValidRows'), (fh) =>
    fh.write(JSON.stringify(summary)).then(() => undefined),
  );
}
