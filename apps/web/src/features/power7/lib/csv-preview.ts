import { detectColumns, detectDelimiter, type ColumnMap } from '@pa/contracts/power7-file';

/** Bytes read for the preview: the server decides on the same first 64 KB. */
export const PREVIEW_BYTES = 65536;

export interface CsvPreview {
  kind: 'csv';
  delimiter: string;
  header: string[];
  rows: string[][];
  /** The columns the server will use, by the shared header rules; null when none are found. */
  columns: ColumnMap | null;
}

export type FilePreview = CsvPreview | { kind: 'xlsx' } | { kind: 'unreadable'; reason: string };

/** Splits CSV text into records (RFC 4180 quotes, any line end); the last partial line is dropped when `partial`. */
export function parseCsvRecords(text: string, delimiter: string, limit: number, partial: boolean) {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const end = () => {
    record.push(field);
    field = '';
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i < text.length && records.length < limit) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
    } else field += c;
    i++;
  }
  if (records.length < limit && !partial && (field !== '' || record.length)) end();
  return records;
}

const isZip = (head: Uint8Array) => head[0] === 0x50 && head[1] === 0x4b;

/** What the page shows before the upload: a CSV's header, first rows and the columns found. */
export async function previewFile(file: Blob, rows = 5): Promise<FilePreview> {
  const head = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
  if (isZip(head)) return { kind: 'xlsx' };
  if (head.length === 0) return { kind: 'unreadable', reason: 'The file is empty.' };
  const body = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  if (body.includes(0)) return { kind: 'unreadable', reason: 'This is not a CSV or XLSX file.' };
  const delimiter = String.fromCharCode(detectDelimiter(body));
  const text = new TextDecoder().decode(body);
  const records = parseCsvRecords(text, delimiter, rows + 1, file.size > PREVIEW_BYTES);
  const header = (records[0] ?? []).map((h) => h.trim());
  return {
    kind: 'csv',
    delimiter,
    header,
    rows: records.slice(1),
    columns: detectColumns(header),
  };
}
