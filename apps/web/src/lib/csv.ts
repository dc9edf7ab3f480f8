/**
 * CSV writing for list exports (RFC 4180, CRLF line ends). A text cell starting with = + - @ tab or
 * carriage return gets a leading single quote, so a spreadsheet never runs it as a formula (OWASP
 * "CSV injection"). Numbers, booleans and dates are written as they are.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

export interface PageOf<T> {
  items: T[];
  totalPages: number;
}

/**
 * Writes the header and then every page `fetchPage` returns, one page at a time, into `parts` (a
 * Blob takes them as they are, so the whole file never exists as one string). Returns the row count.
 */
export async function writeCsvPages<T>(
  columns: readonly CsvColumn<T>[],
  fetchPage: (page: number) => Promise<PageOf<T>>,
  parts: string[],
  onProgress?: (page: number, totalPages: number) => void,
): Promise<number> {
  parts.push(csvRow(columns.map((c) => c.header)));
  let rows = 0;
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage(page);
    parts.push(answer.items.map((item) => csvRow(columns.map((c) => c.value(item)))).join(''));
    rows += answer.items.length;
    onProgress?.(page, answer.totalPages);
    if (page >= answer.totalPages || answer.items.length === 0) return rows;
  }
}
