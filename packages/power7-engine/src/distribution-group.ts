import { BINOM, PICK } from './model';

/**
 * Grouping every draw's total by histogram bin (`distribution.ts`), run where the scan ran: each part
 * (a worker's top numbers) walks only its own draws, in rank order, and writes them at its own
 * cursors, so the parts run at once and the result is the same as one pass over all draws. Kept apart
 * from `distribution.ts` so the worker bundle stays small.
 */

/**
 * What `distribution.bin` holds per draw, grouped by bin: the total's remainder within its bin of
 * width 2^shift (1, 2 or 4 bytes: a quarter to an eighth of the whole total's 8), or, with bins wider
 * than 2^32 units, the whole total as a float64 (8). 0 with shift 0: a bin is one value, nothing is
 * stored.
 */
export type DrawBytes = 0 | 1 | 2 | 4 | 8;

export function drawBytes(shift: number): DrawBytes {
  return shift === 0 ? 0 : shift <= 8 ? 1 : shift <= 16 ? 2 : shift <= 32 ? 4 : 8;
}

/** The grouped draws of some bins, each stored as `drawBytes` says. */
export type GroupedColumn = Uint8Array | Uint16Array | Uint32Array | Float64Array;

export function groupedColumn(bytes: DrawBytes, length: number, shared: boolean): GroupedColumn {
  const width = Math.max(1, bytes);
  const buffer = shared ? new SharedArrayBuffer(length * width) : new ArrayBuffer(length * width);
  return width === 1
    ? new Uint8Array(buffer)
    : width === 2
      ? new Uint16Array(buffer)
      : width === 4
        ? new Uint32Array(buffer)
        : new Float64Array(buffer);
}

/** One part's pass over its draws (a build step, see `tables.ts`). */
export interface GroupOp {
  op: 'group';
  /** Every draw's total by colex rank (shared). */
  totals: Float64Array;
  /** The top numbers (0-based largest number) whose draws this part walks. */
  tops: number[];
  shift: number;
  /** Bins [first, end) go to `out`, which starts at bin `first`. */
  first: number;
  end: number;
  /** Where each bin starts among all draws (`binStarts`). */
  starts: Float64Array;
  /** The histograms of the parts before this one: their draws come first in each bin. */
  before: ArrayLike<number>[];
  /** Shared, or null when only the sums are wanted. */
  out: GroupedColumn | null;
  /** Shared; when given, this part's exact per-bin sums (Σ⌊t/2^26⌋ and Σ(t mod 2^26)) are added. */
  sums: { high: Float64Array; low: Float64Array } | null;
}

const SPLIT = 2 ** 26;

export function groupDraws(op: GroupOp): void {
  const { totals, shift, first, end, out, sums } = op;
  const cursor = out ? partCursor(op) : op.starts; // (not written without `out`)
  const inverse = 2 ** -shift; // exact: a power of two
  // a remainder within the bin, or the whole total
  const step = out instanceof Float64Array ? 0 : 2 ** shift;
  for (const g of op.tops) {
    if (g < PICK - 1) continue;
    const from = BINOM[g]![PICK]!;
    const to = from + BINOM[g]![PICK - 1]!;
    if (sums) groupWithSums(totals, from, to, inverse, step, first, end, cursor, out, sums);
    else if (out) group(totals, from, to, inverse, step, first, end, cursor, out);
  }
}

/** Where this part's next draw of each bin goes in `out` (bins [first, end) only). */
function partCursor({ starts, before, first, end }: GroupOp): Float64Array {
  const cursor = new Float64Array(starts.length);
  const base = starts[first]!;
  for (let b = first; b < end; b++) cursor[b] = starts[b]! - base;
  for (const hist of before) {
    for (let b = first; b < end; b++) cursor[b] = cursor[b]! + hist[b]!;
  }
  return cursor;
}

function group(
  totals: Float64Array,
  from: number,
  to: number,
  inverse: number,
  step: number,
  first: number,
  end: number,
  cursor: Float64Array,
  out: GroupedColumn,
): void {
  for (let k = from; k < to; k++) {
    const t = totals[k]!;
    const b = Math.floor(t * inverse);
    if (b >= first && b < end) out[cursor[b]!++] = t - b * step;
  }
}

/** `group` (when `out`) and the exact per-bin sums, in one pass over the draws. */
function groupWithSums(
  totals: Float64Array,
  from: number,
  to: number,
  inverse: number,
  step: number,
  first: number,
  end: number,
  cursor: Float64Array,
  out: GroupedColumn | null,
  { high, low }: { high: Float64Array; low: Float64Array },
): void {
  for (let k = from; k < to; k++) {
    const t = totals[k]!;
    const b = Math.floor(t * inverse);
    const h = Math.floor(t / SPLIT);
    high[b] = high[b]! + h;
    low[b] = low[b]! + (t - h * SPLIT);
    if (out !== null && b >= first && b < end) out[cursor[b]!++] = t - b * step;
  }
}
