import type { SessionParams } from './state';

/**
 * Upper bounds of the disk a session's folder takes once its job is done, from what is known when
 * the job is accepted: the pool P, the number of tickets (or a bound of it) and the budget. Each term
 * follows a file the engine writes (packages/power7-engine/src/store/); a bound never under-counts,
 * so reservations made from it keep every user inside STORAGE_QUOTA_MB (ADR 019).
 */

/** Excel's last row: an XLSX upload holds at most this many tickets (the reader refuses beyond). */
const EXCEL_MAX_ROWS = 1_048_576;
/** `HIST_BINS` of the engine's scan: the distribution index has at most this many bins. */
const HIST_BINS = 65_536;
/** `analysis.json` (summary, histogram, curve, quantiles) and `ingest.json` without rejected rows. */
const JSON_FILES_BYTES = 256 * 1024;
/** `rejected-rows.csv`'s header: the file of an upload without a rejected row. */
const REJECTED_HEADER_BYTES = 'line,reason,raw\r\n'.length;

function binom(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** The engine's `countWidth`: bytes of one winners count that can reach `bound`. */
const countWidth = (bound: number) => (bound <= 0xff ? 1 : bound <= 0xffff ? 2 : 4);

/** What a job writes, as far as the bound needs it. */
export interface OutputShape {
  pool: number;
  /** Tickets the analysis counts, or an upper bound of them. */
  tickets: number;
  params: Pick<SessionParams, 'budget_type' | 'budget_min' | 'payouts'>;
  /** `counts.bin` is already in the folder (a rerun over the same pool links its source's). */
  countsStored: boolean;
}

/**
 * Bytes the analysis writes: `qualifying.bin` (every draw qualifying: a 4-byte rank and the five
 * winners counts, each as wide as C(7,m)·T needs, columns padded to 4 bytes), `distribution.bin`
 * (every draw's total, at most 8 bytes), `distribution-index.bin` (three float64 columns of at most
 * HIST_BINS bins), `counts.bin` (C(P,3..6) counts and two words per distinct ticket) and the JSON
 * summary. A range budget whose minimum is above the largest total a draw can reach (T × the
 * largest payout) qualifies no draw. O(1).
 */
export function resultBytesBound({ pool, tickets, params, countsStored }: OutputShape): number {
  const draws = binom(pool, 7);
  const largestPayout = Math.max(...Object.values(params.payouts).map(Number), 0);
  const largestTotal = largestPayout * tickets;
  const noneQualify =
    params.budget_type === 'range' && (params.budget_min ?? 0) > largestTotal && tickets > 0;
  const widths = [3, 4, 5, 6, 7].map((m) => countWidth(binom(7, m) * tickets));
  const qualifying = noneQualify ? 0 : draws * (4 + widths.reduce((a, b) => a + b, 0)) + 5 * 3;
  const distribution = draws * 8;
  const distributionIndex = 3 * 8 * HIST_BINS;
  const counts = countsStored
    ? 0
    : 4 * (16 + binom(pool, 3) + binom(pool, 4) + binom(pool, 5) + binom(pool, 6) + 2 * tickets);
  return qualifying + distribution + distributionIndex + counts + JSON_FILES_BYTES;
}

/**
 * Bytes the read of a file of `fileBytes` with at most `tickets` valid rows writes besides the file
 * itself (which becomes `rows.csv`): `tickets.bin` (7 bytes a ticket) and `rows.idx` (16). The
 * rejected rows' report holds the customer's own rows and has no bound known before the read: it
 * is counted once written, by the check before the analysis (`SessionJobRunner`).
 */
export function readBytesBound(fileBytes: number, tickets: number): number {
  return fileBytes + 23 * tickets + REJECTED_HEADER_BYTES;
}

/**
 * Most tickets a file can hold, from its bytes: an XLSX (a ZIP: `PK` first) holds at most Excel's
 * rows; a CSV's rows end with a line feed (the reader's only record end), so it holds at most its
 * line feeds + 1.
 */
export function ticketsBound(head: Buffer, lineFeeds: number): number {
  const xlsx = head.length >= 2 && head[0] === 0x50 && head[1] === 0x4b;
  return xlsx ? EXCEL_MAX_ROWS : lineFeeds + 1;
}

/** Counts the line feeds of a stream's chunks (for `ticketsBound`). */
export function countLineFeeds(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) count++;
  return count;
}
