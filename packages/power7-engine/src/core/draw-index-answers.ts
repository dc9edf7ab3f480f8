import {
  drawRow,
  Unranker,
  type DrawPage,
  type DrawRow,
  type FilterQuery,
  type QueryContext,
  type RowFilter,
} from './draw-query';
import { planQuery, totalAt, words32, type DrawIndex, type IndexedQuery } from './draw-index';
import { scanIndex, scanPart, wordParts, type ScannedPart } from './draw-index-scan';

/**
 * Positions of the page in the index's order (total descending, combo ascending; or total ascending,
 * combo ascending when `ascending`) of a query without winners ranges: walks the run from its best
 * end and stops at the page's last row.
 */
function pageInOrder(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  ascending: boolean,
  maxSteps = Infinity,
) {
  return walkPage(
    index,
    q,
    (take) => {
      const { from, to } = q;
      if (!ascending) {
        for (let p = from; p < to; p++) if (take(p)) return;
        return;
      }
      // equal totals stay in combo order: groups of one total from the smallest, each read forwards
      let end = to;
      while (end > from) {
        const total = totalAt(index, w, end - 1);
        let begin = end - 1;
        while (begin > from && totalAt(index, w, begin - 1) === total) begin--;
        for (let p = begin; p < end; p++) if (take(p)) return;
        end = begin;
      }
    },
    maxSteps,
  );
}

/**
 * The page's positions, `walk` handing positions in the query's sort order to `take` until it says
 * the page is full; every filter is tested on the way.
 */
function walkPage(
  index: DrawIndex,
  q: IndexedQuery,
  walk: (take: (p: number) => boolean) => void,
  maxSteps = Infinity,
): number[] | null {
  const start = (q.page - 1) * q.pageSize;
  const out: number[] = [];
  const { f, from, to } = q;
  let seen = 0;
  let steps = 0;
  let tooLong = false;
  walk((p) => {
    if (++steps > maxSteps) {
      tooLong = true;
      return true;
    }
    if (p < from || p >= to || !numbersPassAt(index, q, p)) return false;
    if (f.anyWinnerFilter) {
      for (let k = 0; k < 5; k++) {
        const e = index.counts[k]![p]!;
        if (e < f.winnersLo[k]! || e > f.winnersHi[k]!) return false;
      }
    }
    if (seen++ >= start) out.push(p);
    return out.length === q.pageSize;
  });
  return tooLong ? null : out;
}

/**
 * Which order a query's page is read in: −2 the index's own (total), −1 combo, 0..4 winners of
 * match type 3..7 (`buildSortOrder`).
 */
export function sortOrderKey(q: IndexedQuery): number {
  return q.f.byCombo ? -1 : q.f.sortTier >= 0 ? q.f.sortTier : -2;
}

/** The draws passing the query, counted in this thread (bitsets; a scan of the run for winners ranges). */
export function countHere(index: DrawIndex, w: ArrayLike<number>, q: IndexedQuery): number {
  return filtersPositions(q)
    ? scanIndex(index, w, q, q.from >>> 5, words32(q.to), null)
    : q.to - q.from;
}

/**
 * Positions a walk of the query's sort order is expected to visit for its page, given how many draws
 * pass (`matched`): the walk beats a scan of the run when this is small.
 */
export function walkSteps(index: DrawIndex, q: IndexedQuery, matched: number): number {
  const start = (q.page - 1) * q.pageSize;
  // a page past the end needs no walk
  if (start >= matched) return 0;
  const among = sortOrderKey(q) === -2 ? q.to - q.from : index.n;
  return Math.ceil((Math.min(q.f.depth, matched) * among) / matched);
}

/**
 * The answer from its count and a walk of its sort's order (`order`: `buildSortOrder` of
 * `sortOrderKey(q)`, or null for the index's own order); null when the walk would visit more than
 * `maxSteps` positions (matches bunched at the far end of the order).
 */
export function answerByWalk(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  matched: number,
  order: Uint32Array | null,
  maxSteps = Infinity,
): DrawPage | null {
  const positions = walkPositions(index, ctx.w, q, matched, order, maxSteps);
  return positions && pageOf(ctx, index, q, matched, positions);
}

/**
 * The positions of the page of a query `matched` draws pass, by a walk of its sort's order (`order`,
 * or null for the index's own); none for a page past the end; null when the walk would visit more
 * than `maxSteps` positions. What `answerByWalk` and `answerInOrder` answer from, here or on a
 * winners thread (`walkIndexOnThreads`).
 */
export function walkPositions(
  index: DrawIndex,
  w: ArrayLike<number>,
  q: IndexedQuery,
  matched: number,
  order: Uint32Array | null,
  maxSteps = Infinity,
): number[] | null {
  if ((q.page - 1) * q.pageSize >= matched) return [];
  const key = sortOrderKey(q);
  const ascending = q.f.sign === 1;
  if (!order) return pageInOrder(index, w, q, ascending, maxSteps);
  const n = order.length;
  return walkPage(
    index,
    q,
    (take) => {
      if (key === -1 && !ascending) {
        // combo descending (each combo once)
        for (let i = n - 1; i >= 0; i--) if (take(order[i]!)) return;
        return;
      }
      if (key === -1 || !ascending) {
        // combo ascending, or winners descending then combo
        for (let i = 0; i < n; i++) if (take(order[i]!)) return;
        return;
      }
      // winners ascending: groups of one count from the smallest, each in combo order
      const column = index.counts[key]!;
      let end = n;
      while (end > 0) {
        const value = column[order[end - 1]!]!;
        let begin = end - 1;
        while (begin > 0 && column[order[begin - 1]!]! === value) begin--;
        for (let i = begin; i < end; i++) if (take(order[i]!)) return;
        end = begin;
      }
    },
    maxSteps,
  );
}

function numbersPassAt(index: DrawIndex, q: IndexedQuery, p: number): boolean {
  const { bits, words } = index;
  const word = p >>> 5;
  const bit = 1 << (p & 31);
  for (const b of q.include) if ((bits[b * words + word]! & bit) === 0) return false;
  for (const b of q.exclude) if ((bits[b * words + word]! & bit) !== 0) return false;
  return true;
}

/** The answer row at position `p`. */
function rowAt(ctx: QueryContext, index: DrawIndex, un: Unranker, p: number): DrawRow {
  const e = index.counts.map((c) => c[p]!);
  return drawRow(ctx, un, index.rank[p]!, totalAt(index, ctx.w, p), e);
}

/** Whether anything but the payout range drops draws (else the run's length is the count). */
function filtersPositions(q: IndexedQuery): boolean {
  return q.f.anyWinnerFilter || q.include.length > 0 || q.exclude.length > 0;
}

/** Whether the query's page comes straight off the index's order (no heap over the run). */
function inIndexOrder(f: RowFilter): boolean {
  return !f.byCombo && f.sortTier === -1;
}

/**
 * Whether the query needs a scan of its run's columns (winners ranges, or a sort other than the
 * index's order): `scanPart` over parts of the run, on worker threads, then `answerFromParts`. Else
 * `answerInOrder` answers at once (bitsets and the positions' order).
 */
export function needsScan(q: IndexedQuery): boolean {
  return q.f.anyWinnerFilter || !inIndexOrder(q.f);
}

/**
 * The answer from the parts of a query's scan: their counts added, their best rows (each part's in
 * order) merged up to the page's last row.
 */
export function answerFromParts(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  parts: ScannedPart[],
): DrawPage {
  const { sign, sortTier, byCombo } = q.f;
  const { lexKey } = index;
  const sortColumn = sortTier >= 0 ? index.counts[sortTier]! : null;
  const keyOf = (p: number) =>
    sign * (byCombo ? lexKey[p]! : sortColumn ? sortColumn[p]! : totalAt(index, ctx.w, p));
  const start = (q.page - 1) * q.pageSize;
  const heads = parts.map(() => 0);
  const positions: number[] = [];
  for (let taken = 0; taken < start + q.pageSize; taken++) {
    let best = -1;
    let bestKey = 0;
    let bestLex = 0;
    parts.forEach((part, i) => {
      if (heads[i]! >= part.positions.length) return;
      const p = part.positions[heads[i]!]!;
      const key = keyOf(p);
      const lex = lexKey[p]!;
      if (best === -1 || key < bestKey || (key === bestKey && lex < bestLex)) {
        best = i;
        bestKey = key;
        bestLex = lex;
      }
    });
    if (best === -1) break;
    const p = parts[best]!.positions[heads[best]!++]!;
    if (taken >= start) positions.push(p);
  }
  const matched = parts.reduce((sum, part) => sum + part.matched, 0);
  return pageOf(ctx, index, q, matched, positions);
}

/** The answer of a query that needs no scan: its count from the bitsets, its page off the order. */
export function answerInOrder(ctx: QueryContext, index: DrawIndex, q: IndexedQuery): DrawPage {
  const matched = countHere(index, ctx.w, q);
  return pageOf(ctx, index, q, matched, walkPositions(index, ctx.w, q, matched, null)!);
}

/** How a query is answered in this thread (`queryIndex`): as the service's threads would do it. */
export interface InThread {
  /** Parts the scan is cut in (default 1). */
  parts?: number;
  /** The sort orders a page may be walked in (none: every sort but the index's own scans). */
  orderOf?: (key: number) => Uint32Array;
  /** Most positions a walk may visit before a scan is preferred (default `WALK_LIMIT`). */
  walkLimit?: number;
}

/** Positions a page's walk is expected to visit (random reads) below which it beats a scan. */
export const WALK_LIMIT = 200_000;
/** A walk gives up past this many times its limit (its matches bunched at the far end). */
export const WALK_SLACK = 4;

/**
 * `queryDraws`' answer from the index, all in this thread: at once from the index when it can, else
 * its count and a walk of the sort's order when the walk is short, else a scan (cut in `parts` as the
 * worker threads would share it). Throws INVALID_PARAMS as `queryDraws` does.
 */
export function queryIndex(
  ctx: QueryContext,
  index: DrawIndex,
  query: FilterQuery,
  { parts = 1, orderOf, walkLimit = WALK_LIMIT }: InThread = {},
): DrawPage {
  const q = planQuery(ctx, index, query);
  if (!needsScan(q)) return answerInOrder(ctx, index, q);
  if (orderOf) {
    const matched = countHere(index, ctx.w, q);
    if (walkSteps(index, q, matched) <= walkLimit) {
      const key = sortOrderKey(q);
      const order = key === -2 ? null : orderOf(key);
      const walked = answerByWalk(ctx, index, q, matched, order, walkLimit * WALK_SLACK);
      if (walked) return walked;
    }
  }
  const scanned = wordParts(q, parts).map(([from, to]) => scanPart(index, ctx.w, q, from, to));
  return answerFromParts(ctx, index, q, scanned);
}

/** The answer with its count and the positions of its page's rows. */
export function pageOf(
  ctx: QueryContext,
  index: DrawIndex,
  q: IndexedQuery,
  matched: number,
  positions: number[],
): DrawPage {
  const un = new Unranker();
  return {
    items: positions.map((p) => rowAt(ctx, index, un, p)),
    page: q.page,
    pageSize: q.pageSize,
    total: matched,
    totalPages: Math.ceil(matched / q.pageSize),
  };
}
