/**
 * CSV output shared by every CSV the product hands to people (Power 7 winners and rejected rows, the
 * admin exports): RFC 4180 quoting plus neutralised formulas.
 *
 * A spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and, after some imports, a tab or
 * carriage return) as a formula, so a customer cell such as `=HYPERLINK(…)` would execute when a
 * download is opened. Such a cell is written the way OWASP describes ("CSV Injection"): a single
 * quote in front, inside a quoted field — `"'=HYPERLINK(…)"` — so it shows as text.
 *
 * One exception, on purpose: a plain decimal number (`-5`, `+15551234`, `-0.25`) is written as it is.
 * Digits alone cannot form a formula, and prefixing them would change phone numbers in international
 * form and negative amounts into text with a stray quote. Anything else that starts with a trigger
 * (`-1+1`, `+1 555 1234`, `@SUM(A1)`) is neutralised.
 */

const PLAIN_NUMBER = /^[+-]?[0-9]+(\.[0-9]+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** True when a spreadsheet could read the text as a formula (see the module comment). */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/** One CSV field: quoted when it holds `,` `"` or a line break, formula-like text neutralised. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (isFormulaLike(text)) return `"'${text.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated, RFC 4180) of `csvCell` fields. */
export function csvRow(values: readonly (string | number | boolean | null | undefined)[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

/**
 * Byte order mark every CSV download starts with: without it Excel reads UTF-8 as the system's
 * legacy code page (a name such as "Zoë" turns into "ZoÃ«").
 */
export const CSV_BOM = '\uFEFF';

/**
 * A short list of numbers as one cell no spreadsheet turns into a date: `3 8 12`. Joined with `-` or
 * `/`, two or three small numbers (`3-8`, `3-8-12`) are read as a date and the numbers are lost; a
 * space is no date separator. (A full combo of seven, `3-8-12-19-24-30-35`, is never a date.)
 */
export function numberListCell(numbers: readonly number[]): string {
  return numbers.join(' ');
}

/** A whole CSV document (BOM, header, rows) of `csvRow` lines, as a browser builds a small table. */
export function csvDocument(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  return CSV_BOM + csvRow(header) + rows.map((row) => csvRow(row)).join('');
}
