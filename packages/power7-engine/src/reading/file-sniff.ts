import { open } from 'node:fs/promises';
import { CsvTokenizer, detectDelimiter, fieldText } from '../core/csv';
import { EngineError } from '../core/errors';
import { recogniseColumns } from '../core/file-columns';

const SPACE = 0x20;
const TAB = 0x09;

export type SourceFormat = 'csv' | 'xlsx' | 'empty' | 'binary';

/** How many leading bytes `sniffBytes` / `sniffFile` look at. */
export const SNIFF_BYTES = 65536;

/**
 * Decides a file's format from its first bytes (up to `SNIFF_BYTES`): XLSX by its zip signature
 * PK\x03\x04, binary by NUL bytes or many control characters, empty when only blanks, else CSV.
 */
export function sniffBytes(head: Uint8Array): SourceFormat {
  const b = head.subarray(0, SNIFF_BYTES);
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04)
    return 'xlsx';
  let start = 0;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  let blank = true;
  let ctl = 0;
  for (let i = start; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0) return 'binary';
    if (c !== SPACE && c !== TAB && c !== 0x0a && c !== 0x0d) {
      blank = false;
      if (c < 0x20) ctl++;
    }
  }
  if (blank) return 'empty';
  // many control characters: not text
  if (ctl > b.length / 100 + 2) return 'binary';
  return 'csv';
}

/** Looks at a file's first bytes (see `sniffBytes`). */
export async function sniffFile(path: string): Promise<SourceFormat> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return sniffBytes(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** The engine's error for a file whose first bytes are not a table (`sniffBytes` said so). */
export function formatError(format: 'empty' | 'binary'): EngineError {
  return format === 'empty'
    ? new EngineError('FILE_EMPTY', 'The file is empty.')
    : new EngineError(
        'NOT_A_TABLE',
        'The file is neither CSV text nor an XLSX workbook (it contains binary data).',
      );
}

/**
 * What the first bytes of an upload already show (`head`: its first `SNIFF_BYTES` or more, `complete`
 * when that is the whole file): the error reading it would end with — FILE_EMPTY (blank), NOT_A_TABLE
 * (binary), NO_NUMBER_COLUMNS (a CSV header without them) — or null when nothing is wrong so far (a
 * CSV with a usable header, an XLSX, or a header longer than `head`). Decided exactly as
 * `readCustomerFile` decides, on the same bytes.
 */
export function sniffUpload(head: Uint8Array, complete: boolean): EngineError | null {
  const format = sniffBytes(head);
  if (format === 'empty' || format === 'binary') return formatError(format);
  if (format !== 'csv') return null;
  const bytes = complete ? head : head.subarray(0, SNIFF_BYTES);
  let header: string[] | null = null;
  const tokenizer = new CsvTokenizer({
    delimiter: detectDelimiter(bytes[0] === 0xef ? bytes.subarray(3) : bytes),
    onRecord: (rec) => {
      if (header) return;
      header = [];
      for (let i = 0; i < rec.fieldCount; i++) header.push(fieldText(rec, i).trim());
    },
  });
  try {
    tokenizer.push(bytes);
    if (complete) tokenizer.end();
  } catch {
    return null; // a broken quote or a too-long line: reading the whole file reports it
  }
  if (!header) return null;
  try {
    recogniseColumns(header);
    return null;
  } catch (err) {
    return err as EngineError;
  }
}
