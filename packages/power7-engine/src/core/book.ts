import { BestDraw } from './best-draw';
import { RangeTables } from './liability';
import { masksOf, pop32 } from './shared-numbers';
import { matchesWith } from './matches';
import { BINOM, numbersOfRank, PICK } from './model';
import { FiveSubsetCounts, forEachDraw, NearDraws } from './near-draws';
import type { BookDraw, BookGame, BookTuning, DrawTotals } from './book-types';
import {
  chooseWatch,
  DEFAULT_TUNING,
  ranksAtLeast,
  seenFrom,
  seeTotals,
  type SeenFrom,
  type TotalsSeen,
  writeTotals,
} from './book-watch';

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
 * since (the caller runs it: `analysis/book.ts`), and chooses the next threshold from the draws that
 * pass saw near the limit (`core/book-watch.ts`).
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
  /** Where the watch's choice looks for its draws (`TotalsSeen`). */
  private readonly from: SeenFrom;
  /**
   * Every draw's total at the last fold (see above): 4 bytes a draw while the limit fits, but 8 in
   * a book opened in its analysis' own array (`LiveBookTotals.open`) until its first fold.
   */
  private base: DrawTotals;
  private readonly deferred: RangeTables;
  private deferredTickets: Uint8Array;
  private deferredCount = 0;
  /** Tickets sold since the last fold at which the next fold is due. */
  private foldAt = 0;
  /**
   * While the 5-match payouts are deferred: the most the deferred payouts may add to a draw at a
   * check (`deferredMax`); past it a fold is due. Infinity otherwise (the count `foldAt` rules).
   */
  private deferredCap = Infinity;
  /** While the 5-match payouts are deferred: the copies of each 5-subset among the tickets since the fold. */
  private readonly fiveCounts: FiveSubsetCounts;
  private threshold = 0;
  /** Whether the watch holds every draw a 5-match could breach (then they are not enumerated). */
  private fivesWatched = false;
  private readonly inWatch: Uint8Array;
  private watchSize = 0;
  private watchRanks = new Uint32Array(1024);
  private watchNumbers = new Uint8Array(1024 * PICK);
  private watchLo = new Uint32Array(1024);
  private watchHi = new Uint32Array(1024);
  private readonly near: NearDraws;
  private readonly scratch = new Uint8Array(PICK);
  private readonly matches = new Float64Array(8);
  /** A draw reached the threshold in a sale: it is watched from now on. */
  private readonly reached = (rank: number) => {
    if (!this.watched(rank)) this.watch(rank, numbersOfRank(rank));
  };

  /**
   * `seen`: what the pass that wrote `base` saw (`writeTotals` from `BookTotals.seenFrom` of this
   * game and tuning); without it, one pass sees them here.
   */
  constructor(
    game: BookGame,
    base: DrawTotals,
    tuning: Partial<BookTuning> = {},
    seen?: TotalsSeen,
  ) {
    this.pool = game.pool;
    this.limit = game.limit;
    for (let m = 3; m <= 7; m++) this.w[m] = game.w[m]!;
    this.w34 = Math.max(this.w[3]!, this.w[4]!);
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
    this.from = seenFrom(game, this.tuning);
    this.base = base;
    this.deferred = new RangeTables(game.pool);
    this.deferredTickets = new Uint8Array(PICK * 64);
    this.inWatch = new Uint8Array(Math.ceil(base.length / 8));
    this.near = new NearDraws(game.pool);
    this.fiveCounts = new FiveSubsetCounts(game.pool);
    this.chooseWatch(seen ?? seeTotals(base, this.from));
  }

  /** Where a book's totals are seen from, for a caller that writes them itself (`writeTotals`). */
  static seenFrom(game: BookGame, tuning: Partial<BookTuning> = {}): SeenFrom {
    return seenFrom(game, { ...DEFAULT_TUNING, ...tuning });
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
      fiveCounts: this.fiveCounts.clone(),
      watchRanks: this.watchRanks.slice(),
      watchNumbers: this.watchNumbers.slice(),
      watchLo: this.watchLo.slice(),
      watchHi: this.watchHi.slice(),
      near: new NearDraws(this.pool),
      scratch: new Uint8Array(PICK),
      matches: new Float64Array(8),
    });
    // the copy's watch, not this one's
    Object.assign(copy, {
      reached: (rank: number) => {
        if (!copy.watched(rank)) copy.watch(rank, numbersOfRank(rank));
      },
    });
    return copy;
  }

  /** Tickets sold since the last fold (their 3- and 4-match payouts are not in `base` yet). */
  get pendingFold(): Uint8Array {
    return this.deferredTickets.subarray(0, this.deferredCount * PICK);
  }

  /** Whether enough tickets wait for a fold that the next sale must wait for one. */
  get foldDue(): boolean {
    return this.deferredCount >= this.foldAt || this.deferredMax > this.deferredCap;
  }

  /**
   * The most the deferred payouts add to any one draw: a deferred ticket adds at most max(w3, w4),
   * or w5 to a draw it shares 5 numbers with — and a draw shares 5 numbers with at most 21 × (most
   * copies of a 5-subset) of them.
   */
  private get deferredMax(): number {
    const k = this.deferredCount;
    if (!this.fivesDeferred) return k * this.w34;
    const fives = Math.min(k, 21 * this.fiveCounts.most);
    return Math.min(k * this.wDeferred, k * this.w34 + fives * this.fiveExtra);
  }

  /** What a 5-match pays above max(w3, w4) (0 when less). */
  private get fiveExtra(): number {
    return Math.max(0, this.w[5]! - this.w34);
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
      this.fiveCounts.bytes +
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
    this.near.forEachHighMatch(t, !this.fivesWatched, (rank, m, numbers) => {
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
    this.near.forEachHighMatch(t, false, (rank, m, numbers) => {
      const total = this.base[rank]! + w[m]!;
      this.base[rank] = total;
      if (total >= this.threshold) this.watch(rank, numbers);
    });
    if (!this.fivesDeferred)
      this.near.addToFives(this.base, t, w[5]!, this.threshold, this.reached);
    else this.fiveCounts.count(t, 1);
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
    // each sale raises deferredMax by at most max(w3, w4) plus 21 more 5-matches' worth
    const step = this.fivesDeferred ? this.w34 + 21 * this.fiveExtra : 0;
    return this.deferredCount + n < this.foldAt && this.deferredMax + n * step <= this.deferredCap;
  }

  /**
   * Takes out the ticket added last (a trial undone, last first): its 5/6/7-match payouts off the
   * totals, its deferred counts off the tables. The watch keeps what it gained (a larger watch is
   * still a watch).
   */
  remove(t: Uint8Array): void {
    const { w } = this;
    this.near.forEachHighMatch(t, false, (rank, m) => {
      this.base[rank] = this.base[rank]! - w[m]!;
    });
    if (!this.fivesDeferred) this.near.addToFives(this.base, t, -w[5]!, Infinity, this.reached);
    else this.fiveCounts.count(t, -1);
    if (this.wDeferred > 0) {
      const k = this.deferredCount - 1;
      this.deferred.uncountOne(this.deferredTickets, k);
      this.deferredCount = k;
    }
  }

  /**
   * Adds the deferred payouts: `scale`·`extra[d]` = the payouts of `deferredMatches` of the tickets
   * sold since the last fold (`pendingFold`) to draw d, in units (an analysis' own unit is a
   * multiple of the book's). Then chooses the next watch from what that pass saw.
   */
  foldIn(extra: ArrayLike<number>, scale = 1): void {
    // totals kept in 8 bytes a draw (a book opened in its analysis' own array) move to 4 in this
    // pass, which writes every draw anyway, while the limit fits: every total is ≤ it
    const into =
      this.base instanceof Float64Array && this.limit < 2 ** 32
        ? new Uint32Array(this.base.length)
        : this.base;
    const seen = writeTotals(into, this.base, extra, scale, this.from);
    this.base = into;
    this.deferred.uncount(this.deferredTickets, 0, this.deferredCount);
    this.deferredCount = 0;
    this.fiveCounts.clear();
    this.chooseWatch(seen);
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

  private watched(rank: number): boolean {
    return (this.inWatch[rank >>> 3]! & (1 << (rank & 7))) !== 0;
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
   * Chooses the watch (`chooseWatch`) from the totals as `seen` while they were written, and lists
   * the watched draws: from their ranks when few (not a walk of every draw's numbers: ~1 s less a
   * fold at P=49), else by walking every draw.
   */
  private chooseWatch(seen: TotalsSeen): void {
    const { base, tuning } = this;
    const choice = chooseWatch(base, { limit: this.limit, w: this.w }, tuning, seen);
    const { threshold } = choice;
    this.fivesDeferred = choice.fivesDeferred;
    this.deferredCap = choice.deferredCap;
    this.fivesWatched = choice.fivesWatched;
    this.threshold = threshold;
    this.foldAt = choice.foldAt;
    this.inWatch.fill(0);
    this.watchSize = 0;
    const ranks = ranksAtLeast(base, seen, threshold, 4 * tuning.watchCap);
    if (ranks) {
      for (let i = 0; i < ranks.length; i++) this.watch(ranks[i]!, numbersOfRank(ranks[i]!));
    } else {
      forEachDraw(this.pool, (rank, numbers) => {
        if (base[rank]! >= threshold) this.watch(rank, numbers);
      });
    }
  }
}

/** Draws at a pool: C(P, 7) (for sizing the totals). */
export function bookDraws(pool: number): number {
  return BINOM[pool]![PICK]!;
}
