/**
 * What a liability limit needs from every draw's total, in one pass over the totals (54 MB at
 * P=35, where each pass costs ~10 ms of memory traffic): the hot draws — above the line, the only
 * ones the limit can breach — and the highest totals at or under it, among which the worst draw
 * after the refusals is usually found without a second pass (`drawsReaching`).
 */
export interface LinePass {
  line: number;
  /** Ranks of the draws above the line, ascending. */
  hot: Uint32Array;
  /** The highest totals at or under the line (up to `near` of them), a min-heap by total. */
  nearRanks: Uint32Array;
  nearTotals: Float64Array;
  nearCount: number;
  /** Whether every draw at or under the line is in the near list (fewer than `near` of them). */
  nearAll: boolean;
}

/** The highest totals at or under the line kept by `passOverLine`. */
const NEAR = 64;

export function passOverLine(totals: Float64Array, line: number, near = NEAR): LinePass {
  let hot = new Uint32Array(1024);
  let nHot = 0;
  const nearRanks = new Uint32Array(near);
  const nearTotals = new Float64Array(near);
  let nearCount = 0;
  let below = 0;
  // a draw must beat the near list's lowest to enter it once the list is full (-1: not full yet)
  let floor = near > 0 ? -1 : Infinity;
  for (let r = 0; r < totals.length; r++) {
    const t = totals[r]!;
    if (t > line) {
      if (nHot === hot.length) {
        const grown = new Uint32Array(2 * hot.length);
        grown.set(hot);
        hot = grown;
      }
      hot[nHot++] = r;
      continue;
    }
    below++;
    if (t <= floor) continue;
    if (nearCount < near) {
      siftUp(nearRanks, nearTotals, nearCount++, r, t);
      if (nearCount === near) floor = nearTotals[0]!;
    } else {
      siftDown(nearRanks, nearTotals, near, r, t);
      floor = nearTotals[0]!;
    }
  }
  return {
    line,
    hot: hot.subarray(0, nHot),
    nearRanks,
    nearTotals,
    nearCount,
    nearAll: below === nearCount,
  };
}

/**
 * Every draw at or under the line whose total is at least `least`, highest total first: from the
 * near list when it holds them all (its lowest is below `least`, or it holds every draw under the
 * line), else by a pass over the totals. `most`: past this many, null (too many to follow).
 */
export function drawsReaching(
  pass: LinePass,
  totals: Float64Array,
  least: number,
  most: number,
): Uint32Array | null {
  const { nearRanks, nearTotals, nearCount, line } = pass;
  // the list holds every draw above its lowest total (ties with the lowest may be left out)
  const complete = pass.nearAll || (nearCount > 0 && nearTotals[0]! < least);
  let ranks: Uint32Array;
  if (complete) {
    const found: number[] = [];
    for (let i = 0; i < nearCount; i++) if (nearTotals[i]! >= least) found.push(nearRanks[i]!);
    if (found.length > most) return null;
    ranks = Uint32Array.from(found);
  } else {
    const found = new Uint32Array(most);
    let n = 0;
    for (let r = 0; r < totals.length; r++) {
      const t = totals[r]!;
      if (t <= line && t >= least) {
        if (n === most) return null;
        found[n++] = r;
      }
    }
    ranks = found.subarray(0, n);
  }
  // highest first (ties by rank), so a walk over them can stop at the first that cannot win
  return ranks.sort((a, b) => totals[b]! - totals[a]! || a - b);
}

/** Inserts (rank, total) at the end of a min-heap of `size` by total. */
function siftUp(ranks: Uint32Array, totals: Float64Array, size: number, r: number, t: number) {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (totals[parent]! <= t) break;
    ranks[i] = ranks[parent]!;
    totals[i] = totals[parent]!;
    i = parent;
  }
  ranks[i] = r;
  totals[i] = t;
}

/** Replaces a full min-heap's lowest with (rank, total). */
function siftDown(ranks: Uint32Array, totals: Float64Array, size: number, r: number, t: number) {
  let i = 0;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && totals[child + 1]! < totals[child]!) child++;
    if (totals[child]! >= t) break;
    ranks[i] = ranks[child]!;
    totals[i] = totals[child]!;
    i = child;
  }
  ranks[i] = r;
  totals[i] = t;
}
