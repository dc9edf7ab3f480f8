import { open } from 'node:fs/promises';
import { QUANTILE_KEYS } from '@pa/contracts/power7-limits';
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
 * Bins read from `totals` in any order (for a handful of reads): the bins asked for in one turn of
 * the event loop (e.g. every quantile's, `quantiles`) come from one pass over the totals.
 */
export function scannedBins(totals: Float64Array, shift: number): BinReader {
  const inverse = 2 ** -shift;
  let asked = new Map<number, { resolve: (bin: Float64Array) => void }[]>();
  const pass = () => {
    const wanted = asked;
    asked = new Map();
    const bins = [...wanted.keys()];
    // bin → 1 + its place in `bins` (a typed lookup: a Map per total is ~10× slower)
    const slot = new Uint32Array(HIST_BINS);
    bins.forEach((bin, i) => (slot[bin] = i + 1));
    const found: number[][] = bins.map(() => []);
    for (let k = 0; k < totals.length; k++) {
      const at = slot[Math.floor(totals[k]! * inverse)]!;
      if (at > 0) found[at - 1]!.push(totals[k]!);
    }
    bins.forEach((bin, i) => {
      const values = Float64Array.from(found[i]!);
      for (const w of wanted.get(bin)!) w.resolve(values);
    });
  };
  return (bin) =>
    new Promise((resolve) => {
      if (asked.size === 0) setImmediate(pass);
      const waiting = asked.get(bin) ?? [];
      waiting.push({ resolve });
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

/** A total in units as an amount of currency (units × unit cents / 100). */
const amount = (units: number, unit: number) => (units * unit) / 100;

/** How one budget fares over every draw. */
export interface BudgetInsight {
  budget: number;
  /** Draws whose total is at most the budget. */
  covered: number;
  share: number;
  /** Share of draws whose total exceeds the budget. */
  exceedProbability: number;
  /** Mean over all draws of max(0, total − budget), rounded to the cent. */
  expectedExcess: number;
  /** Draws whose total exceeds the budget. */
  exceeding: number;
  /** Mean of total − budget over the draws that exceed it, rounded to the cent; null when none. */
  meanOvershoot: number | null;
}

export interface RangeInsight {
  min: number;
  max: number;
  /** Draws with min ≤ total ≤ max. */
  within: number;
  share: number;
  /** Draws with total < min, and total > max. */
  below: number;
  above: number;
}

/** The limit for a chance of exceeding: at most ⌊p × draws⌋ draws above `budget`. */
export interface ExceedLimit {
  exceedProbability: number;
  budget: number;
  /** Draws above `budget` (ties at it can make this fewer than ⌊p × draws⌋). */
  exceeding: number;
}

/** The smallest budget, to the cent, whose expected excess is at most `expectedExcess`. */
export interface ExcessLimit {
  expectedExcess: number;
  budget: number;
}

/** Expected shortfall: the mean of the `draws` largest totals, `draws` = ⌈(1 − level) × all⌉. */
export interface Shortfall {
  level: number;
  draws: number;
  value: number;
}

export type Quantiles = Record<(typeof QUANTILE_KEYS)[number], number>;

/** Cents of an amount of currency (at most 2 decimals, as payouts and budgets are). */
const cents = (amountOf: number) => Math.round(amountOf * 100);

/** `a / b` rounded half up, for non-negative bigints. */
const divRound = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

export async function budgetInsight(
  query: DistributionQuery,
  budget: number,
): Promise<BudgetInsight> {
  const { draws, unit } = query.index;
  const budgetCents = cents(budget);
  // a total of t units is within the budget when t·unit ≤ budget in cents
  const below = await query.atMost(Math.floor(budgetCents / unit));
  const above = draws - below.count;
  const allSum = (await query.atMost(Infinity)).sum;
  const excessCents = BigInt(unit) * (allSum - below.sum) - BigInt(budgetCents) * BigInt(above);
  return {
    budget,
    covered: below.count,
    share: below.count / draws,
    exceedProbability: above / draws,
    expectedExcess: Number(divRound(excessCents, BigInt(draws))) / 100,
    exceeding: above,
    meanOvershoot: above > 0 ? Number(divRound(excessCents, BigInt(above))) / 100 : null,
  };
}

export async function rangeInsight(
  query: DistributionQuery,
  min: number,
  max: number,
): Promise<RangeInsight> {
  const { draws, unit } = query.index;
  const upTo = await query.atMost(Math.floor(cents(max) / unit));
  // below min: totals t with t·unit < min in cents
  const belowMin = await query.atMost(Math.ceil(cents(min) / unit) - 1);
  const within = Math.max(0, upTo.count - belowMin.count);
  return {
    min,
    max,
    within,
    share: within / draws,
    below: belowMin.count,
    above: draws - upTo.count,
  };
}

/**
 * A non-negative finite number as an exact fraction of its shortest decimal form (what was typed:
 * 0.29 is 29/100, not the binary double just below it), so ⌊p × draws⌋ is the count a person expects.
 */
export function decimalFraction(x: number): { num: bigint; den: bigint } {
  invariant(Number.isFinite(x) && x >= 0, 'a decimal fraction needs a finite number ≥ 0');
  const [mantissa, exponent = '0'] = x.toString().split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  const exp = Number(exponent) - fraction.length;
  const digits = BigInt(whole! + fraction);
  return exp >= 0
    ? { num: digits * 10n ** BigInt(exp), den: 1n }
    : { num: digits, den: 10n ** BigInt(-exp) };
}

/** The smallest total B with at most ⌊p × draws⌋ draws above it (p = 0: the worst draw). */
export async function exceedLimit(query: DistributionQuery, p: number): Promise<ExceedLimit> {
  const { draws, unit } = query.index;
  const { num, den } = decimalFraction(p);
  invariant(num < den, 'a chance of exceeding is below 1');
  const allowedAbove = Number((num * BigInt(draws)) / den);
  // at least draws − allowedAbove totals must be ≤ B: B is the (draws − allowedAbove)-th smallest
  const units = await query.kth(draws - allowedAbove);
  const covered = (await query.atMost(units)).count;
  return { exceedProbability: p, budget: amount(units, unit), exceeding: draws - covered };
}

/** ⌈a / b⌉ for bigints, b > 0. */
const ceilDiv = (a: bigint, b: bigint) => (a >= 0n ? (a + b - 1n) / b : -(-a / b));

/**
 * The smallest budget in cents whose expected excess is at most `target`: the excess sum
 * Σ max(0, t − B) falls as B grows (continuous, linear between totals), so the bin where it crosses
 * draws × target is found from the bins' counts and sums alone, and the crossing inside that bin from
 * its sorted totals — one bin read.
 */
export async function excessLimit(query: DistributionQuery, target: number): Promise<ExcessLimit> {
  const { draws, unit, shift } = query.index;
  const width = 2 ** shift;
  const u = BigInt(unit);
  // compare Σ excess (cents) with draws × target as fractions: excess·den ≤ num·draws
  const { num, den } = decimalFraction(target);
  const allowed = num * BigInt(100) * BigInt(draws); // in cents × den
  /** Σ max(0, t − B) in cents × den for B (cents) when `count` draws of total Σ `sum` units lie above. */
  const excessAt = (b: bigint, count: number, sum: bigint) => (u * sum - b * BigInt(count)) * den;
  // the first bin edge (budget = i·width units, in cents) whose excess is within the target
  let lo = 0;
  let hi = HIST_BINS;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const { count, sum } = query.fromBin(mid);
    if (excessAt(BigInt(mid * width) * u, count, sum) <= allowed) hi = mid;
    else lo = mid + 1;
  }
  const result = (cents: bigint) => ({ expectedExcess: target, budget: Number(cents) / 100 });
  if (lo === 0) return result(0n);
  // the crossing lies in bin lo − 1: walk its totals, B in [at, next] has a fixed set above it
  const bin = lo - 1;
  let { count, sum } = query.fromBin(bin);
  let at = BigInt(bin * width) * u;
  const totals = await query.sortedBin(bin);
  for (let j = 0; j <= totals.length; j++) {
    const next = j < totals.length ? BigInt(totals[j]!) * u : BigInt(lo * width) * u;
    // draws exactly at `at` are no longer above it
    if (count === 0) return result(at);
    // smallest b ≥ at with (u·sum − b·count)·den ≤ allowed
    const b = ceilDiv(u * sum * den - allowed, BigInt(count) * den);
    const best = b > at ? b : at;
    if (best <= next || j === totals.length) return result(best);
    at = next;
    // the totals equal to `next` stop counting as above once B reaches them
    while (j < totals.length && BigInt(totals[j]!) * u === next) {
      count--;
      sum -= BigInt(totals[j]!);
      j++;
    }
    j--;
  }
  return result(at);
}

/** Expected shortfall at `level`: the mean of the ⌈(1 − level) × draws⌉ largest totals. */
export async function shortfall(query: DistributionQuery, level: number): Promise<Shortfall> {
  const { draws, unit } = query.index;
  const { num, den } = decimalFraction(level);
  invariant(num > 0n && num < den, 'a shortfall level lies strictly between 0 and 1');
  const k = Number(ceilDiv((den - num) * BigInt(draws), den));
  const largest = query.total - (await query.sumSmallest(draws - k));
  return {
    level,
    draws: k,
    value: Number(divRound(largest * BigInt(unit), BigInt(k))) / 100,
  };
}

/**
 * Quantile q: the smallest total T such that at least q % of draws have a total ≤ T, i.e. the
 * ⌈q·N/100⌉-th smallest total, as an amount of currency.
 */
export async function quantiles(query: DistributionQuery): Promise<Quantiles> {
  const { draws, unit } = query.index;
  const out = {} as Quantiles;
  // asked all at once: a reader may fetch the bins together (`scannedBins`: one pass)
  const values = await Promise.all(
    QUANTILE_KEYS.map((q) => {
      // ⌈q·N/100⌉ in integers
      const { num, den } = decimalFraction(Number(q));
      const k = Number(ceilDiv(num * BigInt(draws), den * 100n));
      return query.kth(Math.max(1, k));
    }),
  );
  QUANTILE_KEYS.forEach((q, i) => (out[q] = amount(values[i]!, unit)));
  return out;
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
