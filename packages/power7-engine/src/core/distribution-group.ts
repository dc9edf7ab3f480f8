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
  /** Every part's histogram at `shift`: a part's draws go after those of the parts before it. */
  hists: ArrayLike<number>[];
  part: number;
  /** Shared, or null when only the sums are wanted. */
  out: GroupedColumn | null;
  /**
   * Shared; when given, this part's exact per-bin sums of the totals, as high·2^26 + low with both
   * parts integers below 2^53 (the split may differ from ⌊t/2^26⌋, t mod 2^26: only the sum counts).
   */
  sums: { high: Float64Array; low: Float64Array } | null;
}

const SPLIT = 2 ** 26;
/** Bins up to 2^26 wide: a bin's sum of remainders stays below 2^53 (≤ 2^27 draws a bin). */
const NARROW = 26;

export function groupDraws(op: GroupOp): void {
  const { totals, shift, first, end, out, sums } = op;
  // per bin [next slot of this part, Σ remainders] side by side: one cache line per draw
  const state = new Float64Array(2 * op.starts.length);
  if (out) setCursors(op, state);
  const inverse = 2 ** -shift; // exact: a power of two
  const width = 2 ** shift;
  // a remainder within the bin, or the whole total
  const step = out instanceof Float64Array ? 0 : width;
  for (const g of op.tops) {
    if (g < PICK - 1) continue;
    const from = BINOM[g]![PICK]!;
    const to = from + BINOM[g]![PICK - 1]!;
    if (!sums) {
      if (out) group(totals, from, to, inverse, step, first, end, state, out);
    } else if (shift <= NARROW) {
      groupSumming(totals, from, to, inverse, width, step, first, end, state, out);
    } else {
      groupSummingWide(totals, from, to, inverse, step, first, end, state, out, sums);
    }
  }
  if (sums && shift <= NARROW) splitSums(state, op.hists[op.part]!, width, sums);
}

/** This part's first slot in each bin of [first, end), counted from the start of `out`. */
function setCursors({ starts, hists, part, first, end }: GroupOp, state: Float64Array): void {
  const base = starts[first]!;
  for (let b = first; b < end; b++) state[2 * b] = starts[b]! - base;
  for (let p = 0; p < part; p++) {
    const hist = hists[p]!;
    for (let b = first; b < end; b++) state[2 * b] = state[2 * b]! + hist[b]!;
  }
}

function group(
  totals: Float64Array,
  from: number,
  to: number,
  inverse: number,
  step: number,
  first: number,
  end: number,
  state: Float64Array,
  out: GroupedColumn,
): void {
  for (let k = from; k < to; k++) {
    const t = totals[k]!;
    const b = Math.floor(t * inverse);
    if (b >= first && b < end) out[state[2 * b]!++] = t - b * step;
  }
}

/** `group` (when `out`) and each bin's sum of remainders, in one pass over the draws. */
function groupSumming(
  totals: Float64Array,
  from: number,
  to: number,
  inverse: number,
  width: number,
  step: number,
  first: number,
  end: number,
  state: Float64Array,
  out: GroupedColumn | null,
): void {
  for (let k = from; k < to; k++) {
    const t = totals[k]!;
    const b = Math.floor(t * inverse);
    const i = 2 * b;
    state[i + 1] = state[i + 1]! + (t - b * width);
    if (out !== null && b >= first && b < end) out[state[i]!++] = t - b * step;
  }
}

/**
 * A bin's sum = its draws × the bin's start + its remainders, split so both parts stay exact: with
 * start = sh·2^26 + sl and Σ remainders = rh·2^26 + rl, high = n·sh + rh and low = n·sl + rl.
 */
function splitSums(
  state: Float64Array,
  hist: ArrayLike<number>,
  width: number,
  { high, low }: { high: Float64Array; low: Float64Array },
): void {
  for (let b = 0; b < hist.length; b++) {
    const n = hist[b]!;
    if (n === 0) continue;
    const start = b * width;
    const sh = Math.floor(start / SPLIT);
    const remainders = state[2 * b + 1]!;
    const rh = Math.floor(remainders / SPLIT);
    high[b] = high[b]! + n * sh + rh;
    low[b] = low[b]! + n * (start - sh * SPLIT) + (remainders - rh * SPLIT);
  }
}

/** Bins wider than 2^26: `group` and the sums split per draw, ⌊t/2^26⌋ and t mod 2^26. */
function groupSummingWide(
  totals: Float64Array,
  from: number,
  to: number,
  inverse: number,
  step: number,
  first: number,
  end: number,
  state: Float64Array,
  out: GroupedColumn | null,
  { high, low }: { high: Float64Array; low: Float64Array },
): void {
  for (let k = from; k < to; k++) {
    const t = totals[k]!;
    const b = Math.floor(t * inverse);
    const h = Math.floor(t / SPLIT);
    high[b] = high[b]! + h;
    low[b] = low[b]! + (t - h * SPLIT);
    if (out !== null && b >= first && b < end) out[state[2 * b]!++] = t - b * step;
  }
}
