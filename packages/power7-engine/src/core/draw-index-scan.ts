import type { CountColumn } from './scan';
import { BoundedHeap } from './bounded-heap';
import { totalAt, words32, type DrawIndex, type IndexedQuery } from './draw-index';
import { CancelledError } from './errors';

/** The positions of word `word` (32 from `word·32`) whose numbers pass, within [from, to). */
function wordMask(index: DrawIndex, q: IndexedQuery, word: number): number {
  const { bits, words } = index;
  let m = -1;
  for (const b of q.include) m &= bits[b * words + word]!;
  for (const b of q.exclude) m &= ~bits[b * words + word]!;
  const first = word * 32;
  if (first < q.from) m &= -1 << (q.from - first);
  if (first + 32 > q.to) m &= q.to - first >= 32 ? -1 : ~(-1 << (q.to - first));
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The draws of positions [wordFrom·32, wordTo·32) ∩ the query's run that pass every filter: how many,
 * and, for a sort other than the index's order, the best `depth` of them in `heap` (positions in its
 * rank slot). The scan that remains after the index, a part of the words per worker thread; `stop` is
 * asked every 64K positions and ends the scan with CancelledError when it says so.
 */
export function scanIndex(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  wordFrom: number,
  wordTo: number,
  heap: BoundedHeap | null,
  stop: () => boolean = () => false,
): number {
  const scan = new RunScan(index, w, q, heap);
  let matched = 0;
  for (let from = wordFrom; from < wordTo; from += STOP_EVERY_WORDS) {
    if (stop()) throw new CancelledError();
    const to = Math.min(wordTo, from + STOP_EVERY_WORDS);
    matched += scan.words(from, to);
  }
  return matched;
}

/** How many of `column[from..to)` lie in [lo, hi]: one winners range, counted in a tight loop. */
function countInRange(
  column: CountColumn,
  lo: number,
  hi: number,
  from: number,
  to: number,
): number {
  let n = 0;
  for (let p = from; p < to; p++) {
    const e = column[p]!;
    if (e >= lo && e <= hi) n++;
  }
  return n;
}

/** Words between two `stop` questions (64K positions, well under a millisecond). */
const STOP_EVERY_WORDS = 2048;

/**
 * One query's scan of the run: only the columns it reads (the winners ranges that are set, the sort
 * key), the sort key first so a draw that cannot enter the heap costs one load.
 */
class RunScan {
  /** The winners columns with a range, and their bounds. */
  private readonly ranged: CountColumn[] = [];
  private readonly lo: number[] = [];
  private readonly hi: number[] = [];
  private readonly sortColumn: CountColumn | null;
  private readonly noNumbers: boolean;

  constructor(
    private readonly index: DrawIndex,
    private readonly w: ArrayLike<number>,
    private readonly q: IndexedQuery,
    private readonly heap: BoundedHeap | null,
  ) {
    const { winnersLo, winnersHi, sortTier } = q.f;
    for (let k = 0; k < 5; k++) {
      if (winnersLo[k] === -Infinity && winnersHi[k] === Infinity) continue;
      this.ranged.push(index.counts[k]!);
      this.lo.push(winnersLo[k]!);
      this.hi.push(winnersHi[k]!);
    }
    this.sortColumn = sortTier >= 0 ? index.counts[sortTier]! : null;
    this.noNumbers = q.include.length === 0 && q.exclude.length === 0;
  }

  /** The draws of words [wordFrom, wordTo) that pass (offered to the heap if there is one). */
  words(wordFrom: number, wordTo: number): number {
    const { index, q, heap } = this;
    if (this.noNumbers) {
      // no number filter: the run's positions in a row
      const from = Math.max(q.from, wordFrom * 32);
      const to = Math.min(q.to, wordTo * 32);
      if (!heap && this.ranged.length === 1)
        return countInRange(this.ranged[0]!, this.lo[0]!, this.hi[0]!, from, to);
      let matched = 0;
      for (let p = from; p < to; p++) matched += this.visit(p);
      return matched;
    }
    let matched = 0;
    for (let word = wordFrom; word < wordTo; word++) {
      let m = wordMask(index, q, word);
      if (this.ranged.length === 0 && !heap) {
        matched += popcount(m);
        continue;
      }
      while (m !== 0) {
        const p = word * 32 + 31 - Math.clz32(m & -m);
        m &= m - 1;
        matched += this.visit(p);
      }
    }
    return matched;
  }

  /** 1 if the draw at `p` passes the winners ranges (and goes to the heap), else 0. */
  private visit(p: number): number {
    const { ranged, lo, hi, heap } = this;
    for (let k = 0; k < ranged.length; k++) {
      const e = ranged[k]![p]!;
      if (e < lo[k]! || e > hi[k]!) return 0;
    }
    if (!heap) return 1;
    const { sign, byCombo } = this.q.f;
    const lex = this.index.lexKey[p]!;
    const v = byCombo
      ? lex
      : this.sortColumn
        ? this.sortColumn[p]!
        : totalAt(this.index, this.w, p);
    const key = sign * v;
    if (heap.size === heap.capacity && key > heap.worstKey()) return 1;
    // the heap's total and winners are not read back: the answer reads them at the position
    heap.offer(key, lex, p, 0, 0, 0, 0, 0, 0);
    return 1;
  }
}

/** The query's run cut in `parts` ranges of words (for `scanPart`), the last ones maybe empty. */
export function wordParts(q: IndexedQuery, parts: number): [number, number][] {
  const first = q.from >>> 5;
  const end = words32(q.to);
  const step = Math.ceil((end - first) / parts);
  return Array.from({ length: parts }, (_, i) => {
    const from = Math.min(end, first + i * step);
    return [from, Math.min(end, from + step)];
  });
}

/** One part of a query's scan: how many draws passed, and the best `depth` of them (positions). */
export interface ScannedPart {
  matched: number;
  positions: Float64Array;
}

/**
 * Scans words [wordFrom, wordTo) of the query's run (a worker thread's share of `needsScan`); only
 * counts when `countOnly`.
 */
export function scanPart(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  wordFrom: number,
  wordTo: number,
  stop?: () => boolean,
  countOnly = false,
): ScannedPart {
  const heap = countOnly ? null : new BoundedHeap(Math.min(q.f.depth, index.n));
  const matched = scanIndex(index, w, q, wordFrom, wordTo, heap, stop);
  const rows = heap?.drainBestFirst() ?? [];
  return { matched, positions: Float64Array.from(rows, (row) => row.rank) };
}
