import { parse } from 'csv-parse/sync';
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, type ImportColumn } from '@pa/contracts/users-bulk';
import { invalidField } from '@pa/server-kit/errors';

/** One data row of an import: its CSV line and its cells by column. */
export interface CsvUserRow {
  line: number;
  cells: Record<ImportColumn, string>;
}

/** Header spellings accepted for each column (compared lower-cased, without spaces, `_` or `-`). */
const ALIASES: Record<string, ImportColumn> = {
  email: 'email',
  emailaddress: 'email',
  username: 'userName',
  firstname: 'firstName',
  userfirstname: 'firstName',
  lastname: 'lastName',
  userlastname: 'lastName',
  phone: 'phone',
  roles: 'roles',
  role: 'roles',
  status: 'status',
};
const REQUIRED: ImportColumn[] = ['email', 'userName', 'firstName', 'lastName'];

const headerKey = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

function columnsOf(header: string[]): ImportColumn[] {
  const columns = header.map((name) => {
    const column = ALIASES[headerKey(name)];
    if (!column)
      throw invalidField(
        'csv',
        `Unknown column "${name}" in the header row; the columns are ${IMPORT_COLUMNS.join(', ')}.`,
      );
    return column;
  });
  const missing = REQUIRED.filter((column) => !columns.includes(column));
  if (missing.length)
    throw invalidField('csv', `The header row lacks the column(s) ${missing.join(', ')}.`);
  const repeated = columns.find((column, i) => columns.indexOf(column) !== i);
  if (repeated)
    throw invalidField('csv', `The column ${repeated} appears twice in the header row.`);
  return columns;
}

/**
 * Reads an import CSV (header row first, any column order, `,` separated, RFC 4180 quoting, a BOM
 * allowed) into rows of known columns. Blank lines are skipped. A malformed file, an unknown or
 * missing column or more than IMPORT_MAX_ROWS rows is a 400 on `csv`: nothing is imported.
 */
export function readUserCsv(csv: string): CsvUserRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    throw invalidField('csv', `The file is not a readable CSV: ${(error as Error).message}`);
  }
  const [header, ...data] = records;
  if (!header) throw invalidField('csv', 'The file is empty; start with the header row.');
  const columns = columnsOf(header.record);
  if (data.length === 0) throw invalidField('csv', 'The file has a header row but no users.');
  if (data.length > IMPORT_MAX_ROWS)
    throw invalidField(
      'csv',
      `The file holds ${data.length} users; import at most ${IMPORT_MAX_ROWS} at a time.`,
    );
  return data.map(({ record, info }) => {
    const cells = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, ''])) as CsvUserRow['cells'];
    columns.forEach((column, i) => (cells[column] = record[i] ?? ''));
    return { line: info.lines, cells };
  });
}
