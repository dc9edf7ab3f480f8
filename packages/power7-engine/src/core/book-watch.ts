import type { BookTuning, DrawTotals } from './book-types';

/**
 * The watch of a live book (`core/book.ts`, ADR 024): which draws it holds, how many sales a fold
 * period takes, and whether the 5-match payouts wait for the fold — chosen at the book's opening and
 * at each fold from every draw's total.
 */

export const DEFAULT_TUNING: BookTuning = {
  watchCap: 1 << 17,
  maxDeferred: 4096,
  minDeferred: 16,
  fivesDeferredMin: 1024,
};

/**
 * What the pass that wrote a book's totals saw on the way: the largest total, and every draw whose
 * total is at least `floor`, by rank ascending — all of them when `count` ≤ `ranks.length`. The
 * watch is then chosen from these few draws (issue #41: the opening of a book at P=35 is one pass
 * over its 6.7M totals, not five); a draw below `floor` is looked for by walking every draw again,
 * as is every draw when they did not fit.
 */
export interface TotalsSeen {
  top: number;
  floor: number;
  ranks: Uint32Array;
  count: number;
}

/** Where a book's totals are seen from (`TotalsSeen.floor`) and how many draws are listed at most. */
export interface SeenFrom {
  floor: number;
  most: number;
}

/**
 * The floor below which a book whose worst draw is near its limit (one opened from its limit run,
 * or sold until full) needs no draw for its watch: its thresholds are the gaps' top −
 * w·(maxDeferred + 2) and the 5-match draws' limit − w5 − w·maxDeferred + 1 (`chooseWatch`, w =
 * max(1, w3, w4)), both at or above limit − 2w·(maxDeferred + 2) − w5 while the worst draw lies
 * within w·(maxDeferred + 2) + w5 of the limit. As many draws as the watch may list (4 × its cap)
 * are kept.
 */
export function seenFrom(
  game: { limit: number; w: ArrayLike<number> },
  tuning: BookTuning,
): SeenFrom {
  const width = Math.max(1, game.w[3]!, game.w[4]!);
  return {
    floor: game.limit - 2 * width * (tuning.maxDeferred + 2) - game.w[5]!,
    most: 4 * tuning.watchCap,
  };
}

/**
 * Writes every draw's total, `into[d] = a[d] + k·b[d]` (`b` absent: `a[d]`), and sees them
 * (`TotalsSeen`) in the same pass. `into` may be `a` or `b`: each draw's values are read before its
 * total is written. Exact for integer totals below 2^53. One loop for each case, the copy without
 * the multiply-add. (A book opened from its session subtracts in its own pass: `totals-less.ts`.)
 */
export function writeTotals(
  into: DrawTotals,
  a: ArrayLike<number>,
  b: ArrayLike<number> | undefined,
  k: number,
  from: SeenFrom,
): TotalsSeen {
  const ranks = new Uint32Array(from.most);
  if (b === undefined) return copied(into, a, from.floor, ranks);
  return added(into, a, b, k, from.floor, ranks);
}

function copied(
  into: DrawTotals,
  a: ArrayLike<number>,
  floor: number,
  ranks: Uint32Array,
): TotalsSeen {
  const most = ranks.length;
  let top = 0;
  let count = 0;
  for (let d = 0; d < into.length; d++) {
    const v = a[d]!;
    into[d] = v;
    if (v > top) top = v;
    if (v >= floor) {
      if (count < most) ranks[count] = d;
      count++;
    }
  }
  return { top, floor, ranks, count };
}

function added(
  into: DrawTotals,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  k: number,
  floor: number,
  ranks: Uint32Array,
): TotalsSeen {
  const most = ranks.length;
  let top = 0;
  let count = 0;
  for (let d = 0; d < into.length; d++) {
    const v = a[d]! + k * b[d]!;
    into[d] = v;
    if (v > top) top = v;
    if (v >= floor) {
      if (count < most) ranks[count] = d;
      count++;
    }
  }
  return { top, floor, ranks, count };
}

/** Sees totals already written (`TotalsSeen`): one pass reading them. */
export function seeTotals(base: DrawTotals, from: SeenFrom): TotalsSeen {
  const ranks = new Uint32Array(from.most);
  let top = 0;
  let count = 0;
  for (let d = 0; d < base.length; d++) {
    const v = base[d]!;
    if (v > top) top = v;
    if (v >= from.floor) {
      if (count < ranks.length) ranks[count] = d;
      count++;
    }
  }
  return { top, floor: from.floor, ranks, count };
}

/** The seen draws when they hold every draw whose total is at least `x`; null when they may not. */
function seenAtLeast(seen: TotalsSeen, x: number): Uint32Array | null {
  return seen.count <= seen.ranks.length && x >= seen.floor
    ? seen.ranks.subarray(0, seen.count)
    : null;
}

/** Draws whose total is at least `x`: among the seen draws when they hold them all, else every draw. */
function countAtLeast(base: DrawTotals, seen: TotalsSeen, x: number): number {
  const list = seenAtLeast(seen, x);
  let n = 0;
  if (list) {
    for (let i = 0; i < list.length; i++) if (base[list[i]!]! >= x) n++;
  } else {
    for (let d = 0; d < base.length; d++) if (base[d]! >= x) n++;
  }
  return n;
}

/**
 * The draws whose total is at least `threshold`, by rank ascending: from the seen draws when they
 * hold them all, else one walk over every draw gathering them; null when more than `most` (the
 * caller then walks every draw's numbers itself).
 */
export function ranksAtLeast(
  base: DrawTotals,
  seen: TotalsSeen,
  threshold: number,
  most: number,
): Uint32Array | null {
  const list = seenAtLeast(seen, threshold);
  if (list) {
    let n = 0;
    const ranks = new Uint32Array(list.length);
    for (let i = 0; i < list.length; i++) if (base[list[i]!]! >= threshold) ranks[n++] = list[i]!;
    return ranks.subarray(0, n);
  }
  const ranks = new Uint32Array(most);
  let listed = 0;
  for (let d = 0; d < base.length && listed <= most; d++) {
    if (base[d]! < threshold) continue;
    if (listed < most) ranks[listed] = d;
    listed++;
  }
  return listed <= most ? ranks.subarray(0, listed) : null;
}

/**
 * The draws per gap below the worst draw `top`: gaps[b] = draws whose total lies in (top −
 * width·(b + 1), top − width·b], for b < `buckets`.
 */
function gapsBelow(
  base: DrawTotals,
  seen: TotalsSeen,
  width: number,
  buckets: number,
): Float64Array {
  const { top } = seen;
  const gaps = new Float64Array(buckets);
  // a draw lands in a bucket only above top − width·buckets (integers, exact): one compare for
  // the rest, no division
  const below = top - width * buckets;
  const list = seenAtLeast(seen, below);
  const n = list ? list.length : base.length;
  for (let i = 0; i < n; i++) {
    const v = base[list ? list[i]! : i]!;
    if (v <= below) continue;
    const b = Math.floor((top - v) / width);
    if (b < buckets) gaps[b] = gaps[b]! + 1;
  }
  return gaps;
}

/** The watch chosen at an opening or a fold (`chooseWatch`). */
export interface WatchChoice {
  /** Every draw whose total is at least this is watched. */
  threshold: number;
  /** Sales a fold period holds at most. */
  foldAt: number;
  fivesDeferred: boolean;
  /** While the 5-match payouts are deferred, the most they may add to a draw before a fold; else ∞. */
  deferredCap: number;
  fivesWatched: boolean;
}

/**
 * Chooses the threshold and the fold interval from the totals' gaps below the worst draw, then
 * whether the 5-match payouts wait for the fold and whether the watch holds the draws a 5-match
 * could breach — counted among the draws seen near the limit (`TotalsSeen`) where they hold them,
 * else over every draw. The watch must hold every draw that a deferred match could breach before
 * the next fold: base ≥ limit − wd · (foldAt + 1) + 1, wd the largest deferred payout.
 */
export function chooseWatch(
  base: DrawTotals,
  game: { limit: number; w: ArrayLike<number> },
  tuning: BookTuning,
  seen: TotalsSeen,
): WatchChoice {
  const { limit, w } = game;
  const { top } = seen;
  const w34 = Math.max(w[3]!, w[4]!);
  const width = Math.max(1, w34);
  const buckets = tuning.maxDeferred + 2;
  const gaps = gapsBelow(base, seen, width, buckets);
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
  const w5 = w[5]!;
  const w345 = Math.max(w34, w5);
  const threshold5 = fivesThreshold(base, seen, game, tuning, threshold, foldAt);
  const fivesDeferred = threshold5 !== null;
  let deferredCap = Infinity;
  let wouldAdd: number;
  if (threshold5 !== null) {
    threshold = threshold5;
    deferredCap = Math.min(limit + 1 - 2 * w345 - threshold, top - threshold);
    wouldAdd = deferredCap;
    foldAt = tuning.maxDeferred;
  } else {
    wouldAdd = Number.isFinite(foldAt) ? foldAt * w34 : 0;
  }
  // the draws a 5-match could breach before the next fold, watched too when few enough: a check
  // then scans the watch instead of looking up its ~8,000 5-match draws one by one
  const fives = limit - w5 - wouldAdd + 1;
  let fivesWatched = fives >= threshold;
  if (!fivesWatched && countAtLeast(base, seen, fives) <= tuning.watchCap) {
    threshold = fives;
    fivesWatched = true;
  }
  return { threshold, foldAt, fivesDeferred, deferredCap, fivesWatched };
}

/**
 * With room to spare, the 5-match payouts wait for the fold too, and a sale updates only its 295
 * 6- and 7-match draws at once (not its 18,081 5-match draws at P=49). The watch then holds every
 * draw a deferred payout could breach, or lift past the worst draw, before the fold: the deferred
 * payouts of k sales add at most k·max(w3, w4) + 21·c·(w5 − max(w3, w4)) to a draw while no
 * 5-subset is bought more than c times among them (`deferredMax`), so the watch reaches down that
 * far below the limit and the worst draw — when it holds few enough draws — for as many sales as
 * the folds would come anyway (a fold costs about one analysis); a fold is due earlier only if the
 * deferred payouts pass that (`deferredCap`). Random sales repeat some 5-subsets (4,096 tickets
 * hold ~86,000 of the 1.9M at P=49: a few thrice), so room for c = 6 is tried first, then for
 * c = 1. The watch's threshold then, or null when the 5-match payouts are not deferred.
 */
function fivesThreshold(
  base: DrawTotals,
  seen: TotalsSeen,
  game: { limit: number; w: ArrayLike<number> },
  tuning: BookTuning,
  threshold: number,
  foldAt: number,
): number | null {
  const { limit, w } = game;
  const { top } = seen;
  const w34 = Math.max(w[3]!, w[4]!);
  const w5 = w[5]!;
  if (w5 === 0) return null;
  const w345 = Math.max(w34, w5);
  const wanted = Math.max(tuning.fivesDeferredMin, foldAt);
  for (const copies of [6, 1]) {
    const reach = wanted * w34 + Math.min(wanted, 21 * copies) * Math.max(0, w5 - w34);
    // only in a book with room above its worst draw: in a full one few sales are accepted, and
    // a check would work out more deferred shares than the sales save
    if (limit - top < reach) continue;
    const threshold5 = Math.min(threshold, top - reach, limit + 1 - 2 * w345 - reach);
    if (countAtLeast(base, seen, threshold5) <= tuning.watchCap) return threshold5;
  }
  return null;
}
