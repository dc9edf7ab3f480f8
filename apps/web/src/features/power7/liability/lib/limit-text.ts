import { MAX_AMOUNT } from '@pa/contracts/power7';
import { detectColumns } from '@pa/contracts/power7-file';
import { parseCsvRecords } from '../../lib/csv-preview';

export type ParsedLimit = { value: number } | { error: string };

const HOW = 'Write it as digits, such as 1500000 or 1,500,000.50.';

/**
 * A liability limit as typed: digits with at most two decimals, thousands separated by commas or
 * spaces in groups of three ("1,500,000", "1 500 000.50"), a leading currency symbol or code
 * ignored. Anything else gets a sentence saying how to write it; the same bounds as the service.
 */
export function parseLimit(text: string): ParsedLimit {
  const trimmed = text
    .trim()
    .replace(/^(?:[A-Za-z]{3}\s*|[$€£¥]\s*)/, '')
    .trim();
  if (!trimmed) return { error: 'Type a limit: the most any one draw may pay in total.' };
  if (trimmed.startsWith('-')) return { error: 'The limit must be at least 0.' };
  const grouped = /^\d{1,3}(?:[,\s\u00a0\u202f]\d{3})+(?:\.\d+)?$/.test(trimmed);
  const plain = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed);
  if (!grouped && !plain) {
    if (/^\d+,\d{1,2}$/.test(trimmed)) {
      return { error: `Use a point for decimals, not a comma. ${HOW}` };
    }
    return { error: `“${text.trim()}” is not an amount. ${HOW}` };
  }
  const digits = trimmed.replace(/[,\s\u00a0\u202f]/g, '');
  const decimals = digits.split('.')[1] ?? '';
  if (decimals.length > 2) return { error: 'The limit may have at most two decimals.' };
  const value = Number(digits);
  if (value > MAX_AMOUNT) {
    return { error: `The limit must be at most ${MAX_AMOUNT.toLocaleString('en-US')}.` };
  }
  return { value };
}

/** Head-room under the limit once the refused tickets are left out: an amount and a fill share. */
export function headroomOf(limit: number, worstAfter: number) {
  const amount = Math.round((limit - worstAfter) * 100) / 100;
  const used = limit > 0 ? Math.min(1, Math.max(0, worstAfter / limit)) : worstAfter > 0 ? 1 : 0;
  return { amount, used };
}

/** One refused row of the CSV, with what the table shows of it. */
export interface RefusedRow {
  line: number;
  numbers: number[];
  breachDraw: string;
  wouldBe: number;
  customerId: string;
}

export interface RefusedPage {
  rows: RefusedRow[];
  /** True when the CSV held more rows than were read. */
  more: boolean;
}

/**
 * The first `count` rows of the refused-tickets CSV (its header: the file's columns, then `line`,
 * `breach_draw`, `would_be_total`); the file's number columns are found by the upload's rules.
 */
export function refusedPage(csv: string, count = 50): RefusedPage {
  const records = parseCsvRecords(csv.replace(/^\uFEFF/, ''), ',', count + 2, false);
  const header = (records[0] ?? []).map((h) => h.trim());
  const at = (name: string) => header.lastIndexOf(name);
  const [line, breach, total] = [at('line'), at('breach_draw'), at('would_be_total')];
  if (line < 0 || breach < 0 || total < 0) return { rows: [], more: false };
  const columns = detectColumns(header.slice(0, line));
  const numbersOf = (cells: string[]): number[] => {
    if (!columns) return [];
    const raw =
      columns.numbers.kind === 'seven'
        ? columns.numbers.indexes.map((i) => cells[i] ?? '')
        : (cells[columns.numbers.index] ?? '').split(/[^\d]+/);
    return raw.filter((s) => s.trim() !== '').map(Number);
  };
  const body = records.slice(1);
  const rows = body.slice(0, count).map((cells) => ({
    line: Number(cells[line]),
    numbers: numbersOf(cells),
    breachDraw: cells[breach] ?? '',
    wouldBe: Number(cells[total]),
    customerId: columns && columns.id >= 0 ? (cells[columns.id] ?? '') : '',
  }));
  return { rows, more: body.length > count };
}

/** The ticket's numbers the draw ("1-2-3-4-5-6-7") holds. */
export function matchedIn(numbers: number[], draw: string): number[] {
  const drawn = new Set(draw.split('-').map(Number));
  return numbers.filter((n) => drawn.has(n));
}

/** The winners page of a breach draw, on the match type the refused ticket would have had. */
export function breachLink(session: string, row: RefusedRow): string {
  const params = new URLSearchParams({ session, combo: row.breachDraw });
  const matches = matchedIn(row.numbers, row.breachDraw).length;
  if (matches >= 3 && matches <= 7) params.set('match', String(matches));
  return `/app/power7/results?${params.toString()}`;
}

/** The cap's answer in words; "no cap fits" when even one copy of each combination is too many. */
export function capWords(cap: { cap: number; maxCopies: number; refused: number }): string {
  if (cap.cap === 0) {
    return 'No cap fits: even one copy of each combination takes some draw past the limit.';
  }
  if (cap.refused === 0) {
    return `No cap is needed: every ticket fits, up to ${copies(cap.maxCopies)} of one combination.`;
  }
  return `Keeping the first ${copies(cap.cap)} of each combination fits the limit and refuses ${cap.refused.toLocaleString('en-US')} ${cap.refused === 1 ? 'ticket' : 'tickets'}.`;
}

const copies = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'copy' : 'copies'}`;
