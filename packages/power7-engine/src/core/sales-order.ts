import { BulkSums } from './bulk-sums';
import { ClosedSubsets } from './closed-subsets';
import type { LiabilityInput, RangeTuning } from './liability';
import { BINOM, PICK } from './model';
import { RangePayouts } from './range-payouts';
import { anyBreach, forEachShare, holdingOf } from './shared-numbers';

/**
 * Which tickets the liability limit refuses in sales order — the decisions only, without the draw
 * each refused ticket would breach (`sellInOrder` gives those, for the refused rows' file).
 *
 * As `sellInOrder`, ranges of tickets are added to the hot draws through their k-subset counts and
 * split where some draw might not fit. What makes it fast once the hot draws fill up is a set of
 * *closed subsets*: when a hot draw's room (limit − total) is below the m-match payout, every
 * m-subset of it is closed — a ticket holding a closed m-subset shares at least m numbers with that
 * draw and would take it past the limit (payouts grow with the matches). Room only shrinks, so a
 * ticket that holds a closed subset now is refused at its turn too: each range first sets those
 * aside with ~100 lookups a ticket, and the rest are often accepted together. Exact only for
 * payouts that do not fall as matches grow: for others the caller uses `sellInOrder`.
 */
export interface SalesOrderResult {
  refused: Uint8Array;
  refusedCount: number;
  /** Per hot draw, its total with the accepted tickets (units). */
  hotTotals: Float64Array;
}

/** Whether the closed-subset test is exact for these payouts: w3 ≤ w4 ≤ … ≤ w7. */
export function payoutsGrowWithMatches(w: ArrayLike<number>): boolean {
  for (let m = 4; m <= 7; m++) if (w[m]! < w[m - 1]!) return false;
  return true;
}

/** `pause` as `sellInOrder`'s: awaited between ranges with the tickets decided so far. */
export async function acceptInOrder(
  input: LiabilityInput,
  pause: (decided: number) => Promise<void> = () => Promise.resolve(),
): Promise<SalesOrderResult> {
  const w = Float64Array.from({ length: 8 }, (_, m) => (m >= 3 ? input.w[m]! : 0));
  if (!payoutsGrowWithMatches(w))
    throw new Error('acceptInOrder needs payouts growing with matches');
  const nHot = input.hot.length / PICK;
  if (nHot === 0) {
    return {
      refused: new Uint8Array(input.count),
      refusedCount: 0,
      hotTotals: new Float64Array(0),
    };
  }
  const run = new SalesOrder(input, w, pause);
  const { count } = input;
  const { tuning } = run;
  const all = Int32Array.from({ length: nHot }, (_, d) => d);
  // ranges grow while every draw fits them and shrink back when one might not (unless the caller
  // fixed them): the first part of a file, where nothing is refused, is taken in a few
  let span = tuning.grow ? Math.max(tuning.chunk, count >> 2) : tuning.chunk;
  for (let from = 0; from < count;) {
    const to = Math.min(count, from + span);
    const before = run.refusedCount;
    await run.processRange(from, to, all, 0);
    if (tuning.grow) {
      span = run.refusedCount === before ? 2 * span : Math.max(tuning.chunk, span >> 1);
    }
    from = to;
    await pause(to);
    run.paused();
  }
  return { refused: run.refused, refusedCount: run.refusedCount, hotTotals: run.cur };
}

/** How long a run holds its caller's event loop at most between pauses, where it can stop. */
const BREATHER_MS = 50;
/** Tickets of a leaf between chances to pause. */
const LEAF_BLOCK = 32_768;

/** One run's state: the hot draws' totals and levels, the closed subsets, the refusals. */
class SalesOrder {
  readonly tuning: RangeTuning;
  readonly refused: Uint8Array;
  refusedCount = 0;
  /** Per hot draw, its total with the tickets accepted so far. */
  readonly cur: Float64Array;
  /** The refused tickets in the order they were refused (a range's own are the log's tail). */
  private readonly log: Int32Array;
  /** Per hot draw, the fewest matches whose payout no longer fits its room (8: none). */
  private readonly level: Uint8Array;
  private readonly closed: ClosedSubsets;
  private readonly payouts: RangePayouts;
  private readonly adds: Float64Array[] = [];

  /** When the caller last had the event loop (`breather`). */
  private lastPause = performance.now();

  constructor(
    private readonly input: LiabilityInput,
    private readonly w: Float64Array,
    private readonly pause: (decided: number) => Promise<void>,
  ) {
    const { tickets, count, pool, hot } = input;
    const nHot = hot.length / PICK;
    this.tuning = {
      // a range costs ~300 ns a ticket to count and ~100 ns a hot draw to add up
      chunk: Math.min(65_536, Math.max(8192, nHot >> 2)),
      leafWork: 1 << 14,
      minRange: 16,
      grow: input.tuning?.chunk === undefined,
      ...input.tuning,
    };
    this.refused = new Uint8Array(count);
    this.log = new Int32Array(count);
    this.cur = new Float64Array(nHot);
    this.level = new Uint8Array(nHot).fill(8);
    this.closed = new ClosedSubsets(pool);
    this.payouts = new RangePayouts(tickets, count, hot, pool, w, this.tuning);
    for (let d = 0; d < nHot; d++) this.relevel(d);
  }

  /**
   * Adds [from, to) to the draws of `cand`, which only its tickets can breach: those holding a
   * closed subset are refused whatever comes before them (unless checked since the last closing:
   * `checked`); if the rest fit every draw they are accepted together, else the range is split or
   * checked ticket by ticket against the draws that might not fit, and the others take its payouts
   * less those of the tickets refused meanwhile.
   */
  async processRange(
    from: number,
    to: number,
    cand: Int32Array,
    depth: number,
    checked = -1,
  ): Promise<void> {
    const { closed, refused, cur, tuning } = this;
    const { tickets, limit } = this.input;
    if (closed.any && closed.version !== checked) {
      for (let t = from; t < to; t++)
        if (!refused[t] && closed.holds(tickets, t * PICK)) this.refuse(t);
    }
    const add = (this.adds[depth] ??= new Float64Array(cur.length));
    this.sumsOf(from, to, cand, add);
    let nCrit = 0;
    for (let i = 0; i < cand.length; i++) if (cur[cand[i]!]! + add[cand[i]!]! > limit) nCrit++;
    if (nCrit === 0) {
      for (let i = 0; i < cand.length; i++) this.settle(cand[i]!, add[cand[i]!]!);
      return;
    }
    const crit = new Int32Array(nCrit);
    const rest = new Int32Array(cand.length - nCrit);
    for (let i = 0, c = 0, r = 0; i < cand.length; i++) {
      const d = cand[i]!;
      if (cur[d]! + add[d]! > limit) crit[c++] = d;
      else rest[r++] = d;
    }
    const mark = this.refusedCount;
    const size = to - from;
    // a ticket checked against ~256 draws (8 bit-sliced words) costs about what counting it again does
    const many =
      this.input.tuning?.leafWork === undefined ? nCrit > 256 : size * nCrit > tuning.leafWork;
    if (size > tuning.minRange && many) {
      const mid = from + Math.floor(size / 2);
      const version = closed.version;
      await this.processRange(from, mid, crit, depth + 1, version);
      await this.breather(mid);
      await this.processRange(mid, to, crit, depth + 1, version);
    } else await this.leaf(from, to, crit);
    this.settleRest(from, to, rest, add, mark);
  }

  /** The caller has just had the event loop. */
  paused(): void {
    this.lastPause = performance.now();
  }

  /**
   * Inside a long range, the caller's `pause` (with the tickets decided so far: those before
   * `decided` are) once ~50 ms have passed since it last ran, so a service keeps answering.
   */
  private async breather(decided: number): Promise<void> {
    if (performance.now() - this.lastPause < (this.tuning.breatherMs ?? BREATHER_MS)) return;
    await this.pause(decided);
    this.paused();
  }

  private refuse(t: number): void {
    this.refused[t] = 1;
    this.log[this.refusedCount++] = t;
  }

  private relevel(d: number): void {
    const { w, level } = this;
    const room = this.input.limit - this.cur[d]!;
    let m = 3;
    while (m <= 7 && room >= w[m]!) m++;
    if (m < level[d]!) {
      // a ticket sharing more numbers with d holds some of its m-subsets too
      this.closed.close(this.input.hot, d * PICK, m);
      level[d] = m;
    }
  }

  private settle(d: number, a: number): void {
    if (a === 0) return;
    this.cur[d] = this.cur[d]! + a;
    this.relevel(d);
  }

  /** What the tickets of [from, to) not refused pay each draw of `cand`, into `add`. */
  private sumsOf(from: number, to: number, cand: Int32Array, add: Float64Array): void {
    const { refused, payouts } = this;
    const { tickets, hot, pool } = this.input;
    let left = 0;
    for (let t = from; t < to; t++) if (!refused[t]) left++;
    // a few draws: each ticket's share of 32 at once (~20 ns), cheaper than counting it (~300 ns)
    const groups = (cand.length + 31) >>> 5;
    if (groups * 20 < 300 && !payouts.inBulk(left)) {
      const holding = holdingOf(hot, pool, cand);
      const total = new Float64Array(cand.length);
      const planes = new Int32Array(4 * groups);
      const { w } = this;
      for (let t = from; t < to; t++) {
        if (refused[t]) continue;
        anyBreach(tickets, t * PICK, holding, groups, planes, total, w, Infinity);
        forEachShare(planes, groups, (i, m) => (total[i] = total[i]! + w[m]!));
      }
      for (let i = 0; i < cand.length; i++) add[cand[i]!] = total[i]!;
      return;
    }
    payouts.payoutsOf(from, to, refused, left, cand, add);
  }

  /**
   * Ticket by ticket against the draws that might not fit: exact, as no other can be breached.
   * The numbers each ticket shares with 32 draws at once are counted bit-sliced (per number of
   * the pool, a bit per draw holding it; three bit planes add up seven such words), so only the
   * draws sharing three or more numbers are looked at one by one.
   */
  private async leaf(from: number, to: number, crit: Int32Array): Promise<void> {
    const { refused, cur, w } = this;
    const { limit, tickets, hot, pool } = this.input;
    const n = crit.length;
    const groups = (n + 31) >>> 5;
    const holding = holdingOf(hot, pool, crit);
    const total = Float64Array.from(crit, (d) => cur[d]!);
    const planes = new Int32Array(4 * groups);
    for (let block = from; block < to; block += LEAF_BLOCK) {
      if (block > from) await this.breather(block);
      for (let t = block, end = Math.min(to, block + LEAF_BLOCK); t < end; t++) {
        if (refused[t]) continue;
        if (anyBreach(tickets, t * PICK, holding, groups, planes, total, w, limit)) {
          this.refuse(t);
          continue;
        }
        forEachShare(planes, groups, (i, m) => (total[i] = total[i]! + w[m]!));
      }
    }
    for (let i = 0; i < n; i++) {
      cur[crit[i]!] = total[i]!;
      this.relevel(crit[i]!);
    }
  }

  /**
   * The draws of `rest` take the range's payouts less those of its tickets refused since `mark`:
   * by popcounts of each late refusal against each draw, the late refusals counted, or the
   * accepted tickets counted again — whichever costs least (ns, measured at P=35).
   */
  private settleRest(from: number, to: number, rest: Int32Array, add: Float64Array, mark: number) {
    const { refused, log, w } = this;
    const { sums } = this.payouts;
    const { pool } = this.input;
    const end = this.refusedCount;
    const late = end - mark;
    let left = 0;
    for (let t = from; t < to; t++) if (!refused[t]) left++;
    const groups = (rest.length + 31) >>> 5;
    const pops = late * groups * 20;
    const lateCounted = late * 300 + rest.length * 100;
    const recounted = BulkSums.pays(left, pool)
      ? left * 100 + BINOM[pool]![6]! * 20
      : left * 300 + rest.length * 100;
    if (pops <= lateCounted && pops <= recounted) {
      const { tickets, hot } = this.input;
      const holding = holdingOf(hot, pool, rest);
      const total = Float64Array.from(rest, (d) => add[d]!);
      const planes = new Int32Array(4 * groups);
      for (let k = mark; k < end; k++) {
        anyBreach(tickets, log[k]! * PICK, holding, groups, planes, total, w, Infinity);
        forEachShare(planes, groups, (i, m) => (total[i] = total[i]! - w[m]!));
      }
      for (let i = 0; i < rest.length; i++) this.settle(rest[i]!, total[i]!);
    } else if (lateCounted <= recounted) {
      sums.countList(log, mark, end);
      for (let i = 0; i < rest.length; i++)
        this.settle(rest[i]!, add[rest[i]!]! - sums.sumOf(rest[i]!));
      sums.clearList(log, mark, end);
    } else {
      this.sumsOf(from, to, rest, add);
      for (let i = 0; i < rest.length; i++) this.settle(rest[i]!, add[rest[i]!]!);
    }
  }
}
