import { open } from 'node:fs/promises';
import {
  drawBytes,
  groupedColumn,
  type DrawBytes,
  type GroupedColumn,
  type GroupOp,
} from '../core/distribution-group';
import { invariant } from '../core/errors';
import { HIST_BINS } from '../core/scan';
import type { BuildPlan } from '../core/table-types';

/**
 * The exact distribution of every draw's total payout, kept so that any budget question is answered
 * exactly (issue #25): every draw's total (in units, see `weights.ts`), stored grouped by the scan's
 * fine histogram bin (bin i holds the totals in [i·2^shift, (i+1)·2^shift); the order inside a bin is
 * arbitrary; each kept as its remainder within the bin, `drawBytes`), with per-bin counts and exact
 * sums. A question reads at most one bin per budget: the bins below it count whole. With `shift` 0
 * a bin is one value and no bin is ever read.
 */
export interface DistributionIndex {
  draws: number;
  /** Bin width is 2^shift units. */
  shift: number;
  /** Minor units (cents) per unit. */
  unit: number;
  /** Draws per bin. */
  counts: Float64Array;
  /**
   * Σ of the totals per bin in units, split so each part stays exact: high·2^26 + low. Empty when the
   * analysis made no sums (`AnalyzeOptions.sumDistribution` false): quantiles only, no `atMost`.
   */
  sumHigh: Float64Array;
  sumLow: Float64Array;
}

/** The totals of one bin, in any order. */
export type BinReader = (bin: number) => Promise<Float64Array>;

const SPLIT = 2 ** 26;

/** One part of the scan: the top numbers it scanned and its fine histogram at the final shift. */
export interface ScannedPart {
  tops: number[];
  hist: ArrayLike<number>;
}

/**
 * Groups every draw's total by bin on the plan's threads (each part walks only the draws it scanned,
 * writing at its own cursors: `distribution-group.ts`) and hands the grouped draws, stored as
 * `drawBytes(shift)` says, to `onPiece` in bin order, in pieces of at most `maxBytes` (a bin larger
 * than that is a piece of its own), each written while the next is grouped. The first pass also sums
 * each bin exactly (high·2^26 + low). Without `onPiece`, only the sums.
 */
export async function groupDistribution(
  totals: Float64Array,
  counts: Float64Array,
  shift: number,
  parts: ScannedPart[],
  plan: BuildPlan,
  onPiece?: (piece: GroupedColumn) => Promise<void>,
  maxBytes = 128 << 20,
): Promise<{ sumHigh: Float64Array; sumLow: Float64Array }> {
  const bytes = drawBytes(shift);
  const starts = binStarts(counts);
  const shared = new Float64Array(new SharedArrayBuffer(starts.byteLength));
  shared.set(starts);
  const sums = parts.map(() => ({ high: sharedFloats(HIST_BINS), low: sharedFloats(HIST_BINS) }));
  const pieces = onPiece && bytes > 0 ? pieceBins(starts, bytes, maxBytes) : [];
  if (pieces.length === 0) pieces.push([0, 0]); // the sums alone
  let writing = Promise.resolve();
  try {
    for (let k = 0; k < pieces.length; k++) {
      const [first, end] = pieces[k]!;
      const base = starts[first]!;
      const out = end > first ? groupedColumn(bytes, starts[end]! - base, true) : null;
      // each part's cursors are set where it runs: its draws go after those of the parts before it
      const ops: GroupOp[] = parts.map((part, p) => ({
        op: 'group',
        totals,
        tops: part.tops,
        shift,
        first,
        end,
        starts: shared,
        hists: parts.map((q) => q.hist),
        part: p,
        out,
        sums: k === 0 ? sums[p]! : null,
      }));
      await plan.run(ops);
      await writing;
      if (out && onPiece) writing = onPiece(out);
    }
    await writing;
  } catch (error) {
    // no write of a piece is left running (the caller removes the file next)
    await writing.catch(() => {});
    throw error;
  }
  const sumHigh = new Float64Array(HIST_BINS);
  const sumLow = new Float64Array(HIST_BINS);
  const [lo, hi] = usedBins(counts);
  for (const { high, low } of sums) {
    for (let b = lo; b <= hi; b++) {
      sumHigh[b] = sumHigh[b]! + high[b]!;
      sumLow[b] = sumLow[b]! + low[b]!;
    }
  }
  return { sumHigh, sumLow };
}

const sharedFloats = (n: number) => new Float64Array(new SharedArrayBuffer(n * 8));

/** Consecutive bin ranges [first, end) of at most `maxBytes` each (a larger bin alone), none empty. */
function pieceBins(starts: Float64Array, width: number, maxBytes: number): [number, number][] {
  const out: [number, number][] = [];
  for (let first = 0; first < HIST_BINS;) {
    let end = first + 1;
    while (end < HIST_BINS && (starts[end + 1]! - starts[first]!) * width <= maxBytes) end++;
    if (starts[end]! > starts[first]!) out.push([first, end]);
    first = end;
  }
  return out;
}

/**
 * The totals of draws [from, to) that fall in each of `bins` (bin i holds [i·2^shift, (i+1)·2^shift)),
 * one array per bin asked, in `bins`' order: one pass over that stretch of `totals`.
 */
export function totalsInBins(
  totals: Float64Array,
  shift: number,
  bins: readonly number[],
  from: number,
  to: number,
): Float64Array[] {
  const inverse = 2 ** -shift;
  // bin → 1 + its place in `bins` (a typed lookup: a Map per total is ~10× slower)
  const slot = new Uint32Array(HIST_BINS);
  bins.forEach((bin, i) => (slot[bin] = i + 1));
  const found: number[][] = bins.map(() => []);
  for (let k = from; k < to; k++) {
    const at = slot[Math.floor(totals[k]! * inverse)]!;
    if (at > 0) found[at - 1]!.push(totals[k]!);
  }
  return found.map((values) => Float64Array.from(values));
}

/** Reads the totals of the bins asked, one array per bin in the order asked (`totalsInBins`). */
export type BinPass = (bins: number[]) => Promise<Float64Array[]>;

/**
 * Bins read from `totals` in any order (for a handful of reads): the bins asked for in one turn of
 * the event loop (e.g. every quantile's, `quantiles`) come from one pass over the totals, made here
 * or by `passOn` (e.g. split over the scan workers: `binPassOnWorkers`).
 */
export function scannedBins(totals: Float64Array, shift: number, passOn?: BinPass): BinReader {
  const run: BinPass =
    passOn ?? ((bins) => Promise.resolve(totalsInBins(totals, shift, bins, 0, totals.length)));
  type Waiting = { resolve: (bin: Float64Array) => void; reject: (error: unknown) => void };
  let asked = new Map<number, Waiting[]>();
  const pass = () => {
    const wanted = asked;
    asked = new Map();
    const bins = [...wanted.keys()];
    run(bins).then(
      (found) =>
        bins.forEach((bin, i) => {
          for (const w of wanted.get(bin)!) w.resolve(found[i]!);
        }),
      (error: unknown) => {
        for (const list of wanted.values()) for (const w of list) w.reject(error);
      },
    );
  };
  return (bin) =>
    new Promise((resolve, reject) => {
      if (asked.size === 0) setImmediate(pass);
      const waiting = asked.get(bin) ?? [];
      waiting.push({ resolve, reject });
      asked.set(bin, waiting);
    });
}

/** Where bin `i`'s totals start in the grouped array (the draws of the bins before it). */
export function binStarts(counts: Float64Array): Float64Array {
  const starts = new Float64Array(HIST_BINS + 1);
  for (let i = 0; i < HIST_BINS; i++) starts[i + 1] = starts[i]! + counts[i]!;
  return starts;
}

/** Exact count and sum (in units) of the draws whose total is at most `x` units. */
interface Below {
  count: number;
  sum: bigint;
}

/** Answers exact questions over one session's distribution, reading bins through `readBin`. */
export class DistributionQuery {
  private readonly starts: Float64Array;
  /** Σ of the totals of the bins before i, exactly. */
  private sums: bigint[] | null = null;
  private readonly bins = new Map<number, Promise<Float64Array>>();

  constructor(
    readonly index: DistributionIndex,
    private readonly readBin: BinReader,
  ) {
    this.starts = binStarts(index.counts);
  }

  /** Σ of the totals of the bins before i, made on first use (quantiles need none). */
  private get sumsBefore(): bigint[] {
    if (this.sums) return this.sums;
    const { counts, sumHigh, sumLow } = this.index;
    invariant(sumHigh.length === HIST_BINS, 'the distribution was analysed without its sums');
    const sums = [0n];
    let sum = 0n;
    for (let i = 0; i < HIST_BINS; i++) {
      if (counts[i]! > 0) sum += BigInt(sumHigh[i]!) * BigInt(SPLIT) + BigInt(sumLow[i]!);
      sums.push(sum);
    }
    this.sums = sums;
    return sums;
  }

  /** Bins read once per query object (a request), however many budgets fall in them. */
  private bin(i: number): Promise<Float64Array> {
    let bin = this.bins.get(i);
    if (!bin) {
      bin = this.readBin(i);
      this.bins.set(i, bin);
    }
    return bin;
  }

  /** Draws with total ≤ x units (x an integer or ±Infinity), and the sum of their totals. */
  async atMost(x: number): Promise<Below> {
    const { shift } = this.index;
    if (x < 0) return { count: 0, sum: 0n };
    const i = Math.floor(x / 2 ** shift);
    if (i >= HIST_BINS) return { count: this.index.draws, sum: this.sumsBefore[HIST_BINS]! };
    // a bin whose every possible total is ≤ x counts whole
    if ((i + 1) * 2 ** shift - 1 <= x)
      return { count: this.starts[i + 1]!, sum: this.sumsBefore[i + 1]! };
    let count = this.starts[i]!;
    let sum = this.sumsBefore[i]!;
    let partial = 0;
    for (const t of await this.bin(i)) {
      if (t <= x) {
        count++;
        partial += t;
        // a bin's partial sum stays exact well below 2^53; flushed to the bigint now and then
        if (partial > 2 ** 52) {
          sum += BigInt(partial);
          partial = 0;
        }
      }
    }
    return { count, sum: sum + BigInt(partial) };
  }

  /** Σ of every total, in units. */
  get total(): bigint {
    return this.sumsBefore[HIST_BINS]!;
  }

  /** The bin holding the k-th smallest total (1 ≤ k ≤ draws). */
  private binOfKth(k: number): number {
    let lo = 0;
    let hi = HIST_BINS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid + 1]! >= k) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Σ of the m smallest totals (0 ≤ m ≤ draws), in units. */
  async sumSmallest(m: number): Promise<bigint> {
    if (m <= 0) return 0n;
    if (m >= this.index.draws) return this.total;
    const i = this.binOfKth(m);
    const taken = m - this.starts[i]!;
    if (taken === this.index.counts[i]) return this.sumsBefore[i + 1]!;
    const sorted = Float64Array.from(await this.bin(i)).sort();
    let partial = 0n;
    for (let j = 0; j < taken; j++) partial += BigInt(sorted[j]!);
    return this.sumsBefore[i]! + partial;
  }

  /**
   * Draws in bins i and above, and the Σ of their totals in units: every draw whose total is at least
   * the bin's first value i·2^shift (0 ≤ i ≤ HIST_BINS), without reading a bin.
   */
  fromBin(i: number): { count: number; sum: bigint } {
    return {
      count: this.index.draws - this.starts[i]!,
      sum: this.total - this.sumsBefore[i]!,
    };
  }

  /** The totals of bin i, smallest first. */
  async sortedBin(i: number): Promise<Float64Array> {
    return Float64Array.from(await this.bin(i)).sort();
  }

  /** The k-th smallest total (1-based), in units. */
  async kth(k: number): Promise<number> {
    const { shift } = this.index;
    // the first bin whose end reaches k
    const lo = this.binOfKth(k);
    if (shift === 0) return lo;
    const sorted = Float64Array.from(await this.bin(lo)).sort();
    return sorted[k - this.starts[lo]! - 1]!;
  }
}

/**
 * Bins read from the grouped draws still in memory: the pieces `groupDistribution` handed over, in
 * order (their concatenation is `distribution.bin`), as `fileBins` reads them from the file.
 */
export function memoryBins(
  pieces: GroupedColumn[],
  { counts, shift }: Pick<DistributionIndex, 'counts' | 'shift'>,
  bytes: DrawBytes,
): BinReader {
  const starts = binStarts(counts);
  const width = 2 ** shift;
  const firsts: number[] = [];
  let at = 0;
  for (const piece of pieces) {
    firsts.push(at);
    at += piece.length;
  }
  return (i) => {
    const count = counts[i]!;
    if (bytes === 0) return Promise.resolve(new Float64Array(count).fill(i));
    // pieces hold whole bins
    let k = firsts.length - 1;
    while (k > 0 && firsts[k]! > starts[i]!) k--;
    const from = starts[i]! - firsts[k]!;
    const stored = pieces[k]!.subarray(from, from + count);
    const base = stored instanceof Float64Array ? 0 : i * width;
    const out = new Float64Array(count);
    for (let j = 0; j < count; j++) out[j] = base + stored[j]!;
    return Promise.resolve(out);
  };
}

/**
 * Bins read from the grouped draws on disk (`distribution.bin`), one read each: `bytes` per draw as
 * `drawBytes` says (8, the whole totals, in sessions saved before the remainders).
 */
export function fileBins(
  path: string,
  { counts, shift }: Pick<DistributionIndex, 'counts' | 'shift'>,
  bytes: DrawBytes,
): BinReader {
  const starts = binStarts(counts);
  const width = 2 ** shift;
  return async (i) => {
    const count = counts[i]!;
    // a bin of one value (shift 0) is not stored
    if (bytes === 0) return new Float64Array(count).fill(i);
    const stored = groupedColumn(bytes, count, false);
    const fh = await open(path, 'r');
    try {
      const raw = new Uint8Array(stored.buffer);
      const { bytesRead } = await fh.read(raw, 0, raw.length, starts[i]! * bytes);
      if (bytesRead !== raw.length) throw new Error(`${path} is shorter than its index`);
    } finally {
      await fh.close();
    }
    if (stored instanceof Float64Array) return stored;
    const out = new Float64Array(count);
    const base = i * width;
    for (let k = 0; k < count; k++) out[k] = base + stored[k]!;
    return out;
  };
}

/** The bins that hold draws: [first, last] (the rest of the 65,536 are empty). */
export function usedBins(counts: Float64Array): [number, number] {
  let first = 0;
  while (first < HIST_BINS - 1 && counts[first] === 0) first++;
  let last = HIST_BINS - 1;
  while (last > first && counts[last] === 0) last--;
  return [first, last];
}

/**
 * The index as stored (`distribution-index.bin`): counts, high and low sums of the used bins only
 * (24 bytes a bin), so a small session's index is small.
 */
export function indexColumns(index: DistributionIndex, [first, last]: [number, number]) {
  return [index.counts, index.sumHigh, index.sumLow].map((column) =>
    column.subarray(first, last + 1),
  );
}

export function indexFromColumns(
  buffer: ArrayBuffer,
  [first, last]: [number, number],
  meta: Pick<DistributionIndex, 'draws' | 'shift' | 'unit'>,
): DistributionIndex {
  const used = last - first + 1;
  const column = (k: number) => {
    const full = new Float64Array(HIST_BINS);
    full.set(new Float64Array(buffer, k * used * 8, used), first);
    return full;
  };
  return { ...meta, counts: column(0), sumHigh: column(1), sumLow: column(2) };
}
