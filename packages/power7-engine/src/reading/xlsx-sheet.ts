import { createReadStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import { csvField } from '../core/csv';
import { EngineError } from '../core/errors';
import { checkXlsxLimits } from './xlsx-guard';

/** Excel's last row: a sheet row numbered beyond it is not a spreadsheet's (and would mean millions of blank lines). */
const EXCEL_MAX_ROWS = 1_048_576;

/**
 * A date cell as ISO text: `2024-11-12` at midnight, else `2024-11-12T08:30:00`. ExcelJS reads a
 * date-formatted cell (it needs the styles) as a Date of its wall-clock value taken as UTC.
 */
function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return isoDate(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('result' in o) return cellText(o.result);
    if ('richText' in o && Array.isArray(o.richText)) {
      return (o.richText as { text: string }[]).map((r) => r.text).join('');
    }
    if ('text' in o) return cellText(o.text);
    if ('error' in o) return String(o.error);
  }
  return String(v);
}

/**
 * Runs on the XLSX worker thread only (`xlsx-worker.ts`), never in a service's own thread: ExcelJS
 * holds what a hostile workbook makes it hold, and only the worker's heap limit bounds that.
 *
 * Streams the first sheet of an XLSX file as CSV bytes (`,`-separated, RFC 4180 quoting), one line per
 * sheet row, blank lines for skipped rows so line numbers equal sheet row numbers; rows shorter than
 * the header are padded with empty cells. Throws XLSX_INVALID for a broken or truncated workbook,
 * XLSX_TOO_LARGE for one whose parts pass `XLSX_LIMITS` (a huge cell, row or shared-strings part).
 */
export async function* sheetAsCsv(path: string): AsyncGenerator<Buffer> {
  for (let attempt = 1; ; attempt++) {
    let yielded = false;
    try {
      for await (const chunk of firstSheetAsCsv(path)) {
        yielded = true;
        yield chunk;
      }
      return;
    } catch (err) {
      // ExcelJS's streaming reader may reach a worksheet before it has read `xl/workbook.xml` (a race
      // in its one-pass unzip, exceljs#3064: "reading 'sheets'"). Nothing of the sheet was read yet,
      // so the file is read again; a file that fails so every time is reported as before.
      const race = err instanceof EngineError && err.message.includes("reading 'sheets'");
      if (!race || yielded || attempt === 3) throw err;
    }
  }
}

/** One read of `sheetAsCsv`. */
async function* firstSheetAsCsv(path: string): AsyncGenerator<Buffer> {
  // a few hundred KB of zip can hold a cell of hundreds of MB: refuse it before ExcelJS holds it
  await checkXlsxLimits(path);
  // ExcelJS (with its zip libraries) costs ~0.2 s to load: only a run that meets an XLSX pays it
  const { default: excel } = await import('exceljs');
  let reader: ExcelJS.stream.xlsx.WorkbookReader;
  try {
    reader = new excel.stream.xlsx.WorkbookReader(createReadStream(path), {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      // the styles say which numbers are dates (a date is a serial number with a date format)
      styles: 'cache',
      worksheets: 'emit',
      entries: 'ignore',
    } as ExcelJS.stream.xlsx.WorkbookStreamReaderOptions);
  } catch (err) {
    throw new EngineError(
      'XLSX_INVALID',
      `The XLSX file cannot be read: ${(err as Error).message}`,
    );
  }
  let parts: string[] = [];
  let size = 0;
  let lastRow = 0;
  /** Cells of the header (the first row holding something). */
  let width = 0;
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const n = row.number;
        if (n > EXCEL_MAX_ROWS) {
          throw new EngineError(
            'XLSX_INVALID',
            `The XLSX file numbers a row ${n.toLocaleString('en-US')}, beyond Excel's last row (${EXCEL_MAX_ROWS.toLocaleString('en-US')}).`,
          );
        }
        while (lastRow + 1 < n) {
          parts.push('\n');
          lastRow++;
        }
        lastRow = n;
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
        // a sheet row ends at its last cell holding something (formatted empty cells do not count),
        // so rows are trimmed, then padded to the header's width: a row is only as short or as long
        // as its content, and the reader's field-count check sees the sheet's columns
        while (cells.length && cells.at(-1) === '') cells.pop();
        if (width === 0) width = cells.length;
        else if (cells.length) while (cells.length < width) cells.push('');
        const line = cells.map((c) => csvField(c)).join(',') + '\n';
        parts.push(line);
        size += line.length;
        if (size > 1 << 20) {
          yield Buffer.from(parts.join(''), 'utf8');
          parts = [];
          size = 0;
        }
      }
      break; // first sheet only
    }
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError(
      'XLSX_INVALID',
      `The XLSX file is damaged or truncated and cannot be read (${(err as Error).message}).`,
    );
  }
  if (!sawSheet) throw new EngineError('XLSX_INVALID', 'The XLSX file has no worksheet.');
  if (parts.length) yield Buffer.from(parts.join(''), 'utf8');
}
