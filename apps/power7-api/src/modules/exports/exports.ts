import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvRow, isFormulaLike } from '@pa/contracts/csv';
import { ErrorCode } from '@pa/contracts/error-codes';
import { XLSX_MAX_ROWS } from '@pa/contracts/power7-limits';
import { CsvTokenizer, recordFields } from '@pa/power7-engine/session-store';
import { AppError } from '@pa/server-kit/errors';
import type { SessionRow } from '../../db/schema';

/**
 * What every Power 7 download can carry so that a file alone can be traced to its run
 * (docs/reference/power7-api.md "Downloads"): the session's parameters, as a `# ` block at the start
 * of a CSV (each line one quoted cell, so a spreadsheet shows it in column A) when asked with
 * `params=1`, and always as a "Parameters" sheet of an XLSX. The CSV's default stays as it was: its
 * first line is the header, for the programs that read it.
 */
export function parameterLines(row: SessionRow, what: string, extra: string[] = []): string[] {
  const p = row.params;
  const budget =
    p.budget_type === 'fixed'
      ? `at most ${String(p.budget)}`
      : `from ${String(p.budget_min)} to ${String(p.budget_max)}`;
  return [
    `Power Analyzer - Power 7 ${what}`,
    `file: ${row.originalName ?? '(none)'}`,
    `session: ${row.id}${row.sourceSessionId ? ` (a rerun of ${row.sourceSessionId})` : ''}`,
    `pool: 1..${p.pool_size}`,
    `payouts: ${[3, 4, 5, 6, 7].map((m) => `${m} matches ${p.payouts[m as 3]}`).join('; ')}`,
    `budget: ${p.budget_type} ${budget}`,
    `currency: ${p.currency ?? '(none named)'}`,
    ...extra,
    `exported: ${new Date().toISOString()}`,
  ];
}

/** The CSV chunks with the parameter block first (`# ` lines, one quoted cell each). */
export async function* withParameterBlock(
  lines: string[],
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string>,
): AsyncGenerator<string | Uint8Array> {
  for (const line of lines) yield csvRow([`# ${line}`]);
  yield* chunks;
}

export { XLSX_MAX_ROWS };

/** Refuses before anything is sent when the rows cannot fit one sheet. */
export function ensureFitsOneSheet(rows: number): void {
  if (rows > XLSX_MAX_ROWS) {
    throw new AppError(
      ErrorCode.VALIDATION_ERROR,
      `${rows.toLocaleString('en')} rows do not fit one spreadsheet (at most ${XLSX_MAX_ROWS.toLocaleString('en')}): download the CSV instead.`,
      [{ field: 'format', message: 'Too many rows for XLSX.', code: ErrorCode.VALIDATION_ERROR }],
    );
  }
}

export interface XlsxSheet {
  /** The data sheet's name. */
  sheet: string;
  /** Columns written as numbers (by header name); every other cell is text, as written. */
  numeric: ReadonlySet<string>;
  /** Numeric columns shown as money (two decimals, thousands separators). */
  money: ReadonlySet<string>;
  parameters: string[];
}

/**
 * The same CSV chunks as an XLSX workbook, streamed: the data sheet with typed cells — text for
 * everything a person typed (ids such as "0012345", phones such as "+4917…", which a spreadsheet
 * would turn into numbers from a CSV), numbers for counts and money — then the "Parameters" sheet.
 * A cell the CSV neutralised as a formula (`'=…`) is plain text here: a text cell never runs.
 */
export function csvToXlsx(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string>,
  spec: XlsxSheet,
): Readable {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: true,
  });
  const sheet = book.addWorksheet(spec.sheet);
  let header: string[] | null = null;
  const pending: string[][] = [];
  const tokenizer = new CsvTokenizer({
    delimiter: 44,
    maxRecordBytes: 1 << 22,
    onRecord: (rec) => pending.push(recordFields(rec)),
  });
  const writeRows = () => {
    for (const fields of pending.splice(0)) {
      if (!header) {
        header = fields.map((h) => h.replace(/^\uFEFF/, ''));
        const row = sheet.addRow(header);
        row.font = { bold: true };
        row.commit();
        continue;
      }
      const names = header;
      const values = fields.map((text, i) => cellValue(text, names[i] ?? '', spec));
      const row = sheet.addRow(values);
      names.forEach((name, i) => {
        if (spec.money.has(name)) row.getCell(i + 1).numFmt = '#,##0.00';
      });
      row.commit();
    }
  };
  void (async () => {
    try {
      for await (const chunk of chunks) {
        // a copy: the tokenizer may keep part of a chunk, and a producer may reuse its buffers
        tokenizer.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
        writeRows();
      }
      tokenizer.end();
      writeRows();
      sheet.commit();
      const params = book.addWorksheet('Parameters');
      for (const line of spec.parameters) params.addRow([line]).commit();
      params.commit();
      await book.commit();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}

function cellValue(text: string, name: string, spec: XlsxSheet): string | number {
  if (spec.numeric.has(name) && text !== '' && Number.isFinite(Number(text))) return Number(text);
  // the CSV's formula guard (a leading quote) is not needed in a text cell
  if (text.startsWith("'") && isFormulaLike(text.slice(1))) return text.slice(1);
  return text;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
