/**
 * How a customer file's first line is read: the delimiter and the columns. Pure functions without
 * Node APIs, so the engine (which reads the file) and the browser (which previews it before the
 * upload) apply the very same rules.
 */

/** How many numbers a ticket holds. */
const PICK = 7;
const QUOTE = 0x22;
const LF = 0x0a;

/** The delimiter of a CSV: `,`, `;` or tab, whichever the first line holds most of (outside quotes). */
export function detectDelimiter(head: Uint8Array): number {
  let inQ = false;
  const counts = { 0x2c: 0, 0x3b: 0, 0x09: 0 } as Record<number, number>;
  for (let i = 0; i < head.length; i++) {
    const c = head[i]!;
    if (c === QUOTE) inQ = !inQ;
    else if (!inQ && c === LF) break;
    else if (!inQ && c in counts) counts[c]!++;
  }
  let best = 0x2c;
  for (const c of [0x3b, 0x09]) if (counts[c]! > counts[best]!) best = c;
  return best;
}

/** How the header maps to the game's columns (-1: no such column). */
export interface ColumnMap {
  header: string[];
  numbers: { kind: 'seven'; indexes: number[] } | { kind: 'single'; index: number };
  id: number;
  name: number;
  phone: number;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Recognises the columns of a header (case-insensitive): seven number columns `n1..n7` /
 * `number1..number7` (spaces, `_` allowed), or one `numbers` / `combination` / `ticket` column;
 * optional customer id, name and phone. Null when no number columns are found.
 */
export function detectColumns(header: string[]): ColumnMap | null {
  const names = header.map(norm);
  const seven: number[] = [];
  for (let k = 1; k <= PICK; k++) {
    let idx = names.indexOf(`n${k}`);
    if (idx === -1) idx = names.indexOf(`number${k}`);
    if (idx === -1) break;
    seven.push(idx);
  }
  const find = (...cands: string[]) => {
    for (const c of cands) {
      const i = names.indexOf(c);
      if (i !== -1) return i;
    }
    return -1;
  };
  let numbers: ColumnMap['numbers'];
  if (seven.length === PICK) numbers = { kind: 'seven', indexes: seven };
  else {
    const single = find('numbers', 'combination', 'ticket');
    if (single === -1) return null;
    numbers = { kind: 'single', index: single };
  }
  return {
    header,
    numbers,
    id: find('customerid', 'customer', 'id', 'clientid'),
    name: find('name', 'customername', 'fullname', 'customer_name'),
    phone: find('phone', 'phonenumber', 'mobile', 'telephone', 'tel'),
  };
}

/** What a person is told when a header has no number columns. */
export function noNumberColumnsMessage(header: string[]): string {
  const shown = header.length ? header.map((h) => `"${h}"`).join(', ') : 'none';
  return (
    `The header has no recognisable number columns (found: ${shown.slice(0, 300)}). ` +
    'Expected n1..n7 or number1..number7, or one column named numbers, combination or ticket.'
  );
}
