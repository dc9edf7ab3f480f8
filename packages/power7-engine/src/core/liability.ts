import { BINOM, loadRankTerms, PICK, ticketRank } from './model';
import { anyBreach, forEachShare, holdingOf, worstBreach } from './shared-numbers';
import { RangePayouts } from './range-payouts';

/**
 * The liability limit in sales order (docs/product/services.md "Liability limit"): tickets are taken
 * in file order; a ticket is refused when adding it would make some draw's total payout greater than
 * the limit; a refused ticket does not count afterwards. Exact: what checking every draw ticket by
 * ticket gives.
 *
 * Only the *hot* draws — those whose total with every ticket exceeds the limit — can ever be
 * breached (the accepted tickets are a subset, payouts are ≥ 0), so only they are tracked. Tickets
 * are taken a range at a time: the range's payouts to every hot draw come from its k-subset counts
 * (`matchesWith`, ~100 lookups a draw); a draw that fits even with the whole range added cannot be
 * breached inside it, so the range is accepted at once when every draw fits, and otherwise split, down
 * to ranges small enough to check ticket by ticket against the few draws that might not fit.
 */
export interface LiabilityInput {
  tickets: Uint8Array;
  count: number;
  pool: number;
  /** Payout per winning ticket in units, index = match type (0..2: 0). */
  w: ArrayLike<number>;
  /** The limit in units: a draw's total may be at most this. */
  limit: number;
  /** The hot draws: their numbers, 7 bytes each (ascending 1-based). */
  hot: Uint8Array;
  /** How ranges are cut (tests force the splits on small files); the defaults suit real ones. */
  tuning?: Partial<RangeTuning>;
}

export interface RangeTuning {
  /** Tickets of a first range. */
  chunk: number;
  /** A range is checked ticket by ticket once its tickets × draws that might not fit are at most this. */
  leafWork: number;
  /** Nor is a range this short split further. */
  minRange: number;
  /** `acceptInOrder`: ranges grow while nothing is refused (default: unless `chunk` is given). */
  grow?: boolean;
  /** `acceptInOrder`: long ranges counted as the analysis counts (`BulkSums`; default true). */
  bulk?: boolean;
  /** `acceptInOrder`: the longest it holds the caller between pauses inside a range (ms; 50). */
  breatherMs?: number;
  /** `acceptInOrder`: the subset size `RangeSums` indexes the hot draws by (default: chosen). */
  subsetSize?: 5 | 6 | 7;
  /**
   * `sellInOrder`: the draws a range's refusals leave take its accepted tickets counted again, not
   * the refused tickets' shares subtracted, whatever costs less (tests: both ways exact).
   */
  recountRest?: boolean;
  /**
   * Draws × refused tickets above which the worst draw after the refusals comes from one analysis
   * of the accepted tickets instead of `worstAfterRefusals`' walk (`analysis/liability.ts`).
   */
  worstWalkWork?: number;
}

export interface LiabilityResult {
  /** Per ticket, 1 when refused. */
  refused: Uint8Array;
  refusedCount: number;
  /** Per refused ticket (in order): the hot draw index it would push highest past the limit, and that total. */
  breachDraw: Int32Array;
  breachTotal: Float64Array;
  /** Per hot draw, its total with the accepted tickets (units). */
  hotTotals: Float64Array;
}

/**
 * `pause` is awaited between ranges of tickets with the tickets decided so far: a caller on a
 * service's event loop hands in a yield (setImmediate) so other requests are answered while a long
 * run goes on, and reports the progress (this module has no timers).
 */
export async function sellInOrder(
  input: LiabilityInput,
  pause: (decided: number) => Promise<void> = () => Promise.resolve(),
): Promise<LiabilityResult> {
  const { count, limit, hot } = input;
  const nHot = hot.length / PICK;
  const tuning: RangeTuning = {
    // a range's table walk (~100 entries a ticket) weighed against its draws' lookups (~500 a draw)
    // and small enough that a range checked ticket by ticket holds the caller briefly between pauses
    chunk: Math.min(65_536, Math.max(8192, 8 * nHot)),
    leafWork: 1 << 18,
    minRange: 16,
    ...input.tuning,
  };
  const { tickets, pool } = input;
  const w = Float64Array.from({ length: 8 }, (_, m) => (m >= 3 ? input.w[m]! : 0));
  const cur = new Float64Array(nHot);
  const refused = new Uint8Array(count);
  const breaches: { draw: number; total: number }[] = [];
  const adds: Float64Array[] = [];
  const payouts = nHot > 0 ? new RangePayouts(tickets, count, hot, pool, w, tuning) : null;
  const every = Int32Array.from({ length: nHot }, (_, d) => d);
  /** What the tickets of [from, to) not refused pay each draw of `draws`, into `add`. */
  const payoutsOf = (from: number, to: number, add: Float64Array, draws: Int32Array = every) => {
    let left = 0;
    for (let t = from; t < to; t++) if (!refused[t]) left++;
    payouts!.payoutsOf(from, to, refused, left, draws, add);
  };

  const processRange = (from: number, to: number, depth: number) => {
    const add = (adds[depth] ??= new Float64Array(nHot));
    payoutsOf(from, to, add);
    const critical: number[] = [];
    for (let d = 0; d < nHot; d++) if (cur[d]! + add[d]! > limit) critical.push(d);
    if (critical.length === 0) {
      for (let d = 0; d < nHot; d++) cur[d] = cur[d]! + add[d]!;
      return;
    }
    const size = to - from;
    // a ticket checked against ~256 draws (8 bit-sliced words) costs about what counting it again
    // does (as `acceptInOrder`'s leaves)
    const many =
      input.tuning?.leafWork === undefined
        ? critical.length > 256
        : size * critical.length > tuning.leafWork;
    if (size > tuning.minRange && many) {
      const mid = from + Math.floor(size / 2);
      processRange(from, mid, depth + 1);
      processRange(mid, to, depth + 1);
      return;
    }
    // ticket by ticket against the draws that might not fit, bit-sliced; the others take the
    // range's payouts, less those of the tickets refused here
    const crit = Int32Array.from(critical);
    const refusedHere = checkLeaf({ input, w, cur, refused, breaches }, crit, from, to);
    const isCritical = new Uint8Array(nHot);
    for (const d of crit) isCritical[d] = 1;
    const rest = Int32Array.from({ length: nHot - crit.length });
    for (let d = 0, r = 0; d < nHot; d++) if (!isCritical[d]) rest[r++] = d;
    settleRest(from, to, rest, add, refusedHere);
  };

  /**
   * The draws of `rest` take the range's payouts less those of the tickets refused in it: by
   * their shares (bit-sliced) or the accepted tickets counted again, whichever costs less (ns,
   * measured at P=35).
   */
  const settleRest = (
    from: number,
    to: number,
    rest: Int32Array,
    add: Float64Array,
    refusedHere: number[],
  ) => {
    if (refusedHere.length === 0) {
      for (const d of rest) cur[d] = cur[d]! + add[d]!;
      return;
    }
    const groups = (rest.length + 31) >>> 5;
    const byShares = refusedHere.length * groups * 20 <= (to - from) * 300 + nHot * 100;
    if (byShares && !tuning.recountRest) {
      const holding = holdingOf(hot, pool, rest);
      const total = Float64Array.from(rest, (d) => cur[d]! + add[d]!);
      const planes = new Int32Array(4 * groups);
      for (const t of refusedHere) {
        anyBreach(tickets, t * PICK, holding, groups, planes, total, w, Infinity);
        forEachShare(planes, groups, (i, m) => (total[i] = total[i]! - w[m]!));
      }
      for (let i = 0; i < rest.length; i++) cur[rest[i]!] = total[i]!;
      return;
    }
    // the accepted tickets of the range counted again
    const kept = new Float64Array(nHot);
    payoutsOf(from, to, kept, rest);
    for (const d of rest) cur[d] = cur[d]! + kept[d]!;
  };

  if (nHot > 0) {
    const { chunk } = tuning;
    for (let from = 0; from < count; from += chunk) {
      const to = Math.min(count, from + chunk);
      processRange(from, to, 0);
      await pause(to);
    }
  }
  const breachDraw = Int32Array.from(breaches, (b) => b.draw);
  const breachTotal = Float64Array.from(breaches, (b) => b.total);
  return { refused, refusedCount: breaches.length, breachDraw, breachTotal, hotTotals: cur };
}

/**
 * `sellInOrder`'s leaf: tickets [from, to) one by one against the draws `crit`, bit-sliced; a ticket
 * that would take one past the limit is refused, with the draw it would take highest (ties: the
 * smaller combination), else added to their totals (`cur`). Returns the tickets refused.
 */
function checkLeaf(
  run: {
    input: LiabilityInput;
    w: Float64Array;
    cur: Float64Array;
    refused: Uint8Array;
    breaches: { draw: number; total: number }[];
  },
  crit: Int32Array,
  from: number,
  to: number,
): number[] {
  const { input, w, cur, refused, breaches } = run;
  const { tickets, hot, pool, limit } = input;
  const groups = (crit.length + 31) >>> 5;
  const holding = holdingOf(hot, pool, crit);
  const total = Float64Array.from(crit, (d) => cur[d]!);
  const planes = new Int32Array(4 * groups);
  const worst = new Float64Array(1);
  const before = (i: number, j: number) => j < 0 || lexBefore(hot, crit[i]!, crit[j]!);
  const refusedHere: number[] = [];
  for (let t = from; t < to; t++) {
    const p = t * PICK;
    const i = worstBreach(tickets, p, holding, groups, planes, total, w, limit, before, worst);
    if (i >= 0) {
      refused[t] = 1;
      refusedHere.push(t);
      breaches.push({ draw: crit[i]!, total: worst[0]! });
    } else forEachShare(planes, groups, (j, m) => (total[j] = total[j]! + w[m]!));
  }
  for (let i = 0; i < crit.length; i++) cur[crit[i]!] = total[i]!;
  return refusedHere;
}

/** Whether hot draw a's numbers come before b's (ties of a breach: the smaller combination). */
function lexBefore(hot: Uint8Array, a: number, b: number): boolean {
  if (b < 0) return true;
  for (let i = 0; i < PICK; i++) {
    const x = hot[a * PICK + i]!;
    const y = hot[b * PICK + i]!;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * The k-subset counts (k = 3..6) of a range of tickets, dense by colex rank and cleared by walking the
 * same tickets again (a range touches ~100 entries a ticket, far fewer than the tables hold), and the
 * copies of each 7-set.
 */
export class RangeTables {
  readonly c3: Uint32Array;
  readonly c4: Uint32Array;
  readonly c5: Uint32Array;
  readonly c6: Uint32Array;
  private readonly sevens = new Map<number, number>();
  private readonly term = new Float64Array(PICK * 8);

  constructor(pool: number) {
    this.c3 = new Uint32Array(BINOM[pool]![3]!);
    this.c4 = new Uint32Array(BINOM[pool]![4]!);
    this.c5 = new Uint32Array(BINOM[pool]![5]!);
    this.c6 = new Uint32Array(BINOM[pool]![6]!);
  }

  /** A copy of the counts (a live book's trial of several tickets works on one). */
  clone(): RangeTables {
    const copy = Object.create(RangeTables.prototype) as RangeTables;
    Object.assign(copy, {
      c3: this.c3.slice(),
      c4: this.c4.slice(),
      c5: this.c5.slice(),
      c6: this.c6.slice(),
      sevens: new Map(this.sevens),
      term: new Float64Array(PICK * 8),
    });
    return copy;
  }

  /** The count tables' bytes. */
  get bytes(): number {
    return this.c3.byteLength + this.c4.byteLength + this.c5.byteLength + this.c6.byteLength;
  }

  copiesOf(rank: number): number {
    return this.sevens.get(rank) ?? 0;
  }

  count(tickets: Uint8Array, from: number, to: number): void {
    for (let t = from; t < to; t++) this.walk(tickets, t, 1);
  }

  uncount(tickets: Uint8Array, from: number, to: number): void {
    for (let t = from; t < to; t++) this.walk(tickets, t, -1);
    this.sevens.clear();
  }

  /** Takes ticket t out again (the last counted first: a live book's trial undone). */
  uncountOne(tickets: Uint8Array, t: number): void {
    this.walk(tickets, t, -1);
    const rank = ticketRank(tickets, t * PICK);
    const copies = (this.sevens.get(rank) ?? 0) - 1;
    if (copies > 0) this.sevens.set(rank, copies);
    else this.sevens.delete(rank);
  }

  /** `count` of the tickets in [from, to) whose `skip` byte is 0. */
  countExcept(tickets: Uint8Array, from: number, to: number, skip: Uint8Array): void {
    for (let t = from; t < to; t++) if (!skip[t]) this.walk(tickets, t, 1);
  }

  /** `uncount` of what `countExcept` counted (with `skip` unchanged since). */
  uncountExcept(tickets: Uint8Array, from: number, to: number, skip: Uint8Array): void {
    for (let t = from; t < to; t++) if (!skip[t]) this.walk(tickets, t, -1);
    this.sevens.clear();
  }

  /** Adds `by` to every k-subset (k = 3..6) of ticket t, and to its 7-set when counting. */
  private walk(tickets: Uint8Array, t: number, by: 1 | -1): void {
    const { c3, c4, c5, c6, term } = this;
    const p = t * PICK;
    loadRankTerms(term, tickets, p);
    for (let i0 = 0; i0 < 5; i0++) {
      const r1 = term[i0 * 8 + 1]!;
      for (let i1 = i0 + 1; i1 < 6; i1++) {
        const r2 = r1 + term[i1 * 8 + 2]!;
        for (let i2 = i1 + 1; i2 < 7; i2++) {
          const r3 = r2 + term[i2 * 8 + 3]!;
          c3[r3] = c3[r3]! + by;
          for (let i3 = i2 + 1; i3 < 7; i3++) {
            const r4 = r3 + term[i3 * 8 + 4]!;
            c4[r4] = c4[r4]! + by;
            for (let i4 = i3 + 1; i4 < 7; i4++) {
              const r5 = r4 + term[i4 * 8 + 5]!;
              c5[r5] = c5[r5]! + by;
              for (let i5 = i4 + 1; i5 < 7; i5++) {
                const r6 = r5 + term[i5 * 8 + 6]!;
                c6[r6] = c6[r6]! + by;
              }
            }
          }
        }
      }
    }
    if (by === 1) {
      const rank = ticketRank(tickets, p);
      this.sevens.set(rank, (this.sevens.get(rank) ?? 0) + 1);
    }
  }
}
