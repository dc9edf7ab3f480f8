import { BestDraw } from './best-draw';
import { masksOf, pop32, RangeTables } from './liability';
import { matchesWith } from './matches';
import { BINOM, PICK, ticketRank } from './model';
import type { BookDraw, BookGame, BookTuning, DrawTotals } from './book-types';

const DEFAULT_TUNING: BookTuning = {
  watchCap: 1 << 17,
  maxDeferred: 4096,
  minDeferred: 16,
  fivesDeferredMin: 1024,
};

/**
 * The totals of a live book (issue #41 part 4, ADR 024): every draw's total payout with the book's
 * tickets, kept so that one more ticket is checked exactly against every draw in about a
 * millisecond and sold in about as much.
 *
 * A ticket t can only breach a draw d it shares m ≥ 3 numbers with, and only if total(d) + w_m >
 * limit. Selling t moves ~830,000 totals at P=35, far too many to update per sale, but most of them
 * by the small 3- and 4-match payouts. So:
 * - `base[d]` holds each draw's total at the last *fold*, plus the 5-, 6- and 7-match payouts of
 *   every ticket sold since (8,135 draws a ticket at P=35, updated at once: `addEager`);
 * - the 3- and 4-match payouts of the tickets sold since the fold are *deferred*: they sit in the
 *   tickets' k-subset counts (`RangeTables`), from which any one draw's share is ~100 lookups, and
 *   add at most `deferredMax` = (tickets since the fold) × max(w3, w4) to any draw;
 * - the *watch* list holds every draw whose base is at least `threshold`, chosen at each fold so that
 *   a draw outside it cannot be breached by a 3- or 4-match before the next fold, nor be the worst
 *   draw unless the watch says so (then one pass over every draw decides: `worst`). A ticket's 5-,
 *   6- and 7-match draws are enumerated directly; its 3- and 4-match ones are looked for in the watch
 *   only.
 * A fold (`foldIn`) adds the deferred payouts of every draw, from one analysis of the tickets sold
 * since (the caller runs it: `analysis/book.ts`), and chooses the next threshold.
 */
export class BookTotals {
  readonly pool: number;
  readonly limit: number;
  private readonly w = new Float64Array(8);
  /** max(w3, w4): the most one deferred ticket adds to a draw while its 5-matches are not deferred. */
  private readonly w34: number;
  /**
   * Whether the 5-match payouts are deferred too in this fold period (a book with room: a sale then
   * updates only its 197 6- and 7-match draws at once); chosen at each fold.
   */
  private fivesDeferred = false;
  private readonly tuning: BookTuning;
  private readonly base: DrawTotals;
  private readonly deferred: RangeTables;
  private deferredTickets: Uint8Array;
  private deferredCount = 0;
  /** Tickets sold since the last fold at which the next fold is due. */
  private foldAt = 0;
  private threshold = 0;
  /** Whether the watch holds every draw a 5-match could breach (then they are not enumerated). */
  private fivesWatched = false;
  private readonly inWatch: Uint8Array;
  private watchSize = 0;
  private watchRanks = new Uint32Array(1024);
  private watchNumbers = new Uint8Array(1024 * PICK);
  private watchLo = new Uint32Array(1024);
  private watchHi = new Uint32Array(1024);
  private readonly complement: Uint8Array;
  private readonly scratch = new Uint8Array(PICK);
  private readonly high = new Uint8Array(PICK);
  private readonly kept = new Uint8Array(PICK);
  private readonly matches = new Float64Array(8);

  constructor(game: BookGame, base: DrawTotals, tuning: Partial<BookTuning> = {}) {
    this.pool = game.pool;
    this.limit = game.limit;
    for (let m = 3; m <= 7; m++) this.w[m] = game.w[m]!;
    this.w34 = Math.max(this.w[3]!, this.w[4]!);
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
    this.base = base;
    this.deferred = new RangeTables(game.pool);
    this.deferredTickets = new Uint8Array(PICK * 64);
    this.inWatch = new Uint8Array(Math.ceil(base.length / 8));
    this.complement = new Uint8Array(game.pool - PICK);
    this.chooseWatch();
  }

  /**
   * A copy to try several tickets on (a dry run checks each as if the accepted ones before it were
   * sold): the totals, the deferred tickets and the watch copied, nothing chosen again.
   */
  clone(): BookTotals {
    const copy = Object.create(BookTotals.prototype) as BookTotals;
    Object.assign(copy, this, {
      w: this.w.slice(),
      base: this.base.slice(),
      deferred: this.deferred.clone(),
      deferredTickets: this.deferredTickets.slice(),
      inWatch: this.inWatch.slice(),
      watchRanks: this.watchRanks.slice(),
      watchNumbers: this.watchNumbers.slice(),
      watchLo: this.watchLo.slice(),
      watchHi: this.watchHi.slice(),
      complement: new Uint8Array(this.complement.length),
      scratch: new Uint8Array(PICK),
      high: new Uint8Array(PICK),
      kept: new Uint8Array(PICK),
      matches: new Float64Array(8),
    });
    return copy;
  }

  /** Tickets sold since the last fold (their 3- and 4-match payouts are not in `base` yet). */
  get pendingFold(): Uint8Array {
    return this.deferredTickets.subarray(0, this.deferredCount * PICK);
  }

  /** Whether enough tickets wait for a fold that the next sale must wait for one. */
  get foldDue(): boolean {
    return this.deferredCount >= this.foldAt;
  }

  /** The most the deferred payouts add to any one draw. */
  private get deferredMax(): number {
    return this.deferredCount * this.wDeferred;
  }

  /** The most one deferred ticket adds to any draw in this fold period. */
  private get wDeferred(): number {
    return this.fivesDeferred ? Math.max(this.w34, this.w[5]!) : this.w34;
  }

  /** The match types whose payouts wait for the next fold (the fold adds exactly these). */
  get deferredMatches(): readonly number[] {
    return this.fivesDeferred ? [3, 4, 5] : [3, 4];
  }

  /** The watch and fold figures a benchmark states: draws watched, sales between folds, 5-matches watched. */
  get shape(): {
    watched: number;
    foldEvery: number;
    fivesWatched: boolean;
    fivesDeferred: boolean;
  } {
    return {
      watched: this.watchSize,
      foldEvery: this.foldAt,
      fivesWatched: this.fivesWatched,
      fivesDeferred: this.fivesDeferred,
    };
  }

  /** The bytes this book holds in memory, roughly. */
  get bytes(): number {
    return (
      this.base.byteLength +
      this.inWatch.byteLength +
      this.deferred.bytes +
      this.watchRanks.byteLength * 4 +
      this.watchNumbers.byteLength
    );
  }

  /** Draw total with every ticket so far, exactly: base plus the deferred 3/4-match payouts. */
  totalOf(numbers: Uint8Array, rank: number): number {
    return this.base[rank]! + this.deferredShare(numbers, rank);
  }

  /**
   * The draw ticket `t` (7 ascending numbers) would push highest past the limit, with that total —
   * ties: the smaller combination — or null when every draw stays within the limit.
   */
  check(t: Uint8Array): BookDraw | null {
    const { limit, w } = this;
    const dMax = this.deferredMax;
    const best = new BestDraw();
    // 5 (unless watched), 6 and 7 matches: the draws themselves
    const watchedUpTo = this.fivesWatched ? 5 : 4;
    this.forEachHighMatch(t, !this.fivesWatched, (rank, m, numbers) => {
      const base = this.base[rank]!;
      if (base + dMax + w[m]! <= limit) return;
      const total = base + this.deferredShare(numbers, rank) + w[m]!;
      if (total > limit) best.consider(total, numbers);
    });
    // 3 and 4 (and 5) matches: only watched draws can be breached by one
    if (this.wDeferred > 0 || this.fivesWatched) {
      const tMasks = masksOf(t, 1);
      const lo = tMasks[0]!;
      const hi = tMasks[1]!;
      const { watchLo, watchHi, watchRanks, watchNumbers } = this;
      for (let i = 0; i < this.watchSize; i++) {
        const m = pop32(watchLo[i]! & lo) + pop32(watchHi[i]! & hi);
        if (m < 3 || m > watchedUpTo) continue;
        const rank = watchRanks[i]!;
        const base = this.base[rank]!;
        if (base + dMax + w[m]! <= limit) continue;
        const numbers = watchNumbers.subarray(i * PICK, i * PICK + PICK);
        const total = base + this.deferredShare(numbers, rank) + w[m]!;
        if (total > limit) best.consider(total, numbers);
      }
    }
    return best.total < 0 ? null : { numbers: best.numbers, total: best.total };
  }

  /** Adds ticket `t` (7 ascending numbers) to the book; the caller has checked it and folds when due. */
  add(t: Uint8Array): void {
    const { w } = this;
    this.forEachHighMatch(t, !this.fivesDeferred, (rank, m, numbers) => {
      const total = this.base[rank]! + w[m]!;
      this.base[rank] = total;
      if (total >= this.threshold) this.watch(rank, numbers);
    });
    if (this.wDeferred > 0) {
      const k = this.deferredCount;
      if ((k + 1) * PICK > this.deferredTickets.length) {
        const grown = new Uint8Array(this.deferredTickets.length * 2);
        grown.set(this.deferredTickets);
        this.deferredTickets = grown;
      }
      this.deferredTickets.set(t, k * PICK);
      this.deferred.count(this.deferredTickets, k, k + 1);
      this.deferredCount = k + 1;
    }
  }

  /** Whether `n` more tickets can be added and taken out again without a fold in between. */
  canTry(n: number): boolean {
    return this.deferredCount + n < this.foldAt;
  }

  /**
   * Takes out the ticket added last (a trial undone, last first): its 5/6/7-match payouts off the
   * totals, its deferred counts off the tables. The watch keeps what it gained (a larger watch is
   * still a watch).
   */
  remove(t: Uint8Array): void {
    const { w } = this;
    this.forEachHighMatch(t, !this.fivesDeferred, (rank, m) => {
      this.base[rank] = this.base[rank]! - w[m]!;
    });
    if (this.wDeferred > 0) {
      const k = this.deferredCount - 1;
      this.deferred.uncountOne(this.deferredTickets, k);
      this.deferredCount = k;
    }
  }

  /**
   * Adds the deferred payouts: `extra[d]` = the payouts of `deferredMatches` of the tickets sold
   * since the last fold (`pendingFold`) to draw d, in units. Then chooses the next watch.
   */
  foldIn(extra: ArrayLike<number>): void {
    const { base } = this;
    for (let d = 0; d < base.length; d++) base[d] = base[d]! + extra[d]!;
    this.deferred.uncount(this.deferredTickets, 0, this.deferredCount);
    this.deferredCount = 0;
    this.chooseWatch();
  }

  /** The draw that pays most (ties: the smaller combination), exactly. */
  worst(): BookDraw {
    const dMax = this.deferredMax;
    const best = new BestDraw();
    const { watchRanks, watchNumbers } = this;
    // the largest base first, so that few others need their deferred share worked out
    let top = -1;
    for (let i = 0; i < this.watchSize; i++) {
      if (top < 0 || this.base[watchRanks[i]!]! > this.base[watchRanks[top]!]!) top = i;
    }
    const exact = (i: number) => {
      const numbers = watchNumbers.subarray(i * PICK, i * PICK + PICK);
      best.consider(this.totalOf(numbers, watchRanks[i]!), numbers);
    };
    if (top >= 0) exact(top);
    for (let i = 0; i < this.watchSize; i++) {
      if (i !== top && this.base[watchRanks[i]!]! + dMax >= best.total) exact(i);
    }
    // a draw outside the watch has base < threshold: it cannot beat (or tie) a best above that
    if (best.total > this.threshold - 1 + dMax) return { numbers: best.numbers, total: best.total };
    return this.worstOfAll();
  }

  /** Every draw walked: the rare case where the watch cannot tell (a book of few tickets). */
  private worstOfAll(): BookDraw {
    const dMax = this.deferredMax;
    const best = new BestDraw();
    forEachDraw(this.pool, (rank, n) => {
      const base = this.base[rank]!;
      if (base + dMax >= best.total) best.consider(base + this.deferredShare(n, rank), n);
    });
    return { numbers: best.numbers, total: best.total };
  }

  /** The 3- and 4-match payouts of the tickets sold since the last fold to one draw. */
  private deferredShare(numbers: ArrayLike<number>, rank: number): number {
    if (this.deferredCount === 0) return 0;
    const out = this.matches;
    const n = this.scratch;
    for (let i = 0; i < PICK; i++) n[i] = numbers[i]!;
    matchesWith(this.deferred, n, 0, this.deferred.copiesOf(rank), out);
    const fives = this.fivesDeferred ? out[5]! * this.w[5]! : 0;
    return out[3]! * this.w[3]! + out[4]! * this.w[4]! + fives;
  }

  /**
   * Calls `fn` for every draw sharing 5, 6 or 7 numbers with ticket t (ascending): its rank, the
   * matches, and its numbers (a scratch array, valid during the call).
   */
  private forEachHighMatch(
    t: Uint8Array,
    fives: boolean,
    fn: (rank: number, m: number, numbers: Uint8Array) => void,
  ): void {
    const { complement, pool } = this;
    let c = 0;
    for (let n = 1, i = 0; n <= pool; n++) {
      if (i < PICK && t[i] === n) i++;
      else complement[c++] = n;
    }
    const { high: d, kept } = this;
    fn(ticketRank(t, 0), 7, t);
    // 6 matches: one number of t swapped for one outside it
    for (let drop = 0; drop < PICK; drop++) {
      let k = 0;
      for (let i = 0; i < PICK; i++) if (i !== drop) kept[k++] = t[i]!;
      for (let x = 0; x < c; x++) {
        mergeInto(d, kept, 6, complement[x]!, 0);
        fn(ticketRank(d, 0), 6, d);
      }
    }
    if (!fives) return;
    // 5 matches: two swapped for two outside
    for (let a = 0; a < PICK - 1; a++) {
      for (let b = a + 1; b < PICK; b++) {
        let k = 0;
        for (let i = 0; i < PICK; i++) if (i !== a && i !== b) kept[k++] = t[i]!;
        for (let x = 0; x < c - 1; x++) {
          for (let y = x + 1; y < c; y++) {
            mergeInto(d, kept, 5, complement[x]!, complement[y]!);
            fn(ticketRank(d, 0), 5, d);
          }
        }
      }
    }
  }

  /** Puts a draw into the watch (or refreshes nothing: its base is read from `base`). */
  private watch(rank: number, numbers: ArrayLike<number>): void {
    const byte = rank >>> 3;
    const bit = 1 << (rank & 7);
    if (this.inWatch[byte]! & bit) return;
    this.inWatch[byte] = this.inWatch[byte]! | bit;
    const i = this.watchSize++;
    if (i >= this.watchRanks.length) this.growWatch();
    this.watchRanks[i] = rank;
    let lo = 0;
    let hi = 0;
    for (let k = 0; k < PICK; k++) {
      const n = numbers[k]!;
      this.watchNumbers[i * PICK + k] = n;
      if (n <= 32) lo = (lo | (1 << (n - 1))) >>> 0;
      else hi = (hi | (1 << (n - 33))) >>> 0;
    }
    this.watchLo[i] = lo;
    this.watchHi[i] = hi;
  }

  private growWatch(): void {
    const size = this.watchRanks.length * 2;
    const grow = <T extends Uint32Array | Uint8Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.watchRanks = grow(this.watchRanks, size);
    this.watchLo = grow(this.watchLo, size);
    this.watchHi = grow(this.watchHi, size);
    this.watchNumbers = grow(this.watchNumbers, size * PICK);
  }

  /**
   * Chooses the threshold and the fold interval from the totals' gaps below the worst draw (one
   * pass), then lists the watched draws (a second pass). The watch must hold every draw that a
   * deferred match could breach before the next fold: base ≥ limit − wd · (foldAt + 1) + 1, wd the
   * largest deferred payout.
   */
  private chooseWatch(): void {
    const { base, limit, w34, tuning } = this;
    let top = 0;
    for (let d = 0; d < base.length; d++) if (base[d]! > top) top = base[d]!;
    const width = Math.max(1, w34);
    const buckets = tuning.maxDeferred + 2;
    const gaps = new Float64Array(buckets);
    for (let d = 0; d < base.length; d++) {
      const b = Math.floor((top - base[d]!) / width);
      if (b < buckets) gaps[b] = gaps[b]! + 1;
    }
    // the lowest threshold W0 − width·(b + 1) + 1 whose draws fit the cap
    let held = 0;
    let b = -1;
    while (b + 1 < buckets - 1 && held + gaps[b + 1]! <= tuning.watchCap) held += gaps[++b]!;
    let threshold = b < 0 ? top + 1 : top - width * (b + 1) + 1;
    // sales a fold period may hold when each adds at most wd to a draw outside the watch: no such
    // draw may then be breached by a deferred match (the limit), nor overtake the worst draw of the
    // fold (the top; where it could, `worst` walks every draw instead)
    const interval = (wd: number) =>
      wd === 0
        ? Infinity
        : Math.min(
            Math.floor((limit - threshold + 1) / wd) - 1,
            Math.ceil((top - threshold + 1) / wd) - 1,
          );
    let foldAt = interval(w34);
    if (foldAt < tuning.minDeferred) {
      // the limit's part must hold: the watch grows down to it
      foldAt = tuning.minDeferred;
      threshold = Math.min(threshold, limit - w34 * (foldAt + 1) + 1);
    }
    foldAt = Math.min(foldAt, tuning.maxDeferred);
    // with room to spare, the 5-match payouts wait for the fold too: the watch then holds every draw
    // a 5-match could breach before it, and a sale updates only its 6- and 7-match draws at once
    const w345 = Math.max(w34, this.w[5]!);
    const foldAt5 = interval(w345);
    // only when the folds come no more often: a fold costs about one analysis
    this.fivesDeferred = this.w[5]! > 0 && foldAt5 >= Math.max(tuning.fivesDeferredMin, foldAt);
    if (this.fivesDeferred) foldAt = Math.min(foldAt5, tuning.maxDeferred);
    // the draws a 5-match could breach before the next fold, watched too when few enough: a check
    // then scans the watch instead of looking up its ~8,000 5-match draws one by one
    const deferredCap = Number.isFinite(foldAt) ? foldAt * (this.fivesDeferred ? w345 : w34) : 0;
    const fives = limit - this.w[5]! - deferredCap + 1;
    let fivesWatched = fives >= threshold;
    if (!fivesWatched) {
      let near = 0;
      for (let d = 0; d < base.length; d++) if (base[d]! >= fives) near++;
      if (near <= tuning.watchCap) {
        threshold = fives;
        fivesWatched = true;
      }
    }
    this.fivesWatched = fivesWatched;
    this.threshold = threshold;
    this.foldAt = foldAt;
    this.inWatch.fill(0);
    this.watchSize = 0;
    forEachDraw(this.pool, (rank, numbers) => {
      if (base[rank]! >= threshold) this.watch(rank, numbers);
    });
  }
}

/** Every draw in colex order: its rank and numbers (a scratch array, valid during the call). */
function forEachDraw(pool: number, fn: (rank: number, numbers: Uint8Array) => void): void {
  const n = new Uint8Array(PICK);
  let r = 0;
  for (let g = 7; g <= pool; g++) {
    n[6] = g;
    for (let f = 6; f < g; f++) {
      n[5] = f;
      for (let e = 5; e < f; e++) {
        n[4] = e;
        for (let d = 4; d < e; d++) {
          n[3] = d;
          for (let c = 3; c < d; c++) {
            n[2] = c;
            for (let b = 2; b < c; b++) {
              n[1] = b;
              for (let a = 1; a < b; a++, r++) {
                n[0] = a;
                fn(r, n);
              }
            }
          }
        }
      }
    }
  }
}

/** `out` = the `k` ascending numbers of `kept` with x (and y > x when not 0) merged in. */
function mergeInto(out: Uint8Array, kept: Uint8Array, k: number, x: number, y: number): void {
  let i = 0;
  let o = 0;
  while (i < k && kept[i]! < x) out[o++] = kept[i++]!;
  out[o++] = x;
  if (y) {
    while (i < k && kept[i]! < y) out[o++] = kept[i++]!;
    out[o++] = y;
  }
  while (i < k) out[o++] = kept[i++]!;
}

/** Draws at a pool: C(P, 7) (for sizing the totals). */
export function bookDraws(pool: number): number {
  return BINOM[pool]![PICK]!;
}
