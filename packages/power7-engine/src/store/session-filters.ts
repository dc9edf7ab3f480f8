import { queryDraws, type FilterQuery, type QueryContext } from '../core/draw-query';
import { planQuery, type DrawIndex, type IndexedQuery } from '../core/draw-index';
import {
  answerFromParts,
  answerInOrder,
  countHere,
  needsScan,
  pageOf,
  queryIndex,
  sortOrderKey,
  WALK_LIMIT,
  WALK_SLACK,
  walkPositions,
  walkSteps,
} from '../core/draw-index-answers';
import { scanPart, wordParts } from '../core/draw-index-scan';
import type { FilterAnswer } from './session-types';
import {
  buildDrawIndexOnThreads,
  buildSortOrderOnThreads,
  scanIndexOnThreads,
  walkIndexOnThreads,
} from '../parallel/winners-pool';

/** Draws of a filter's run below which its scan runs here (a thread's round trip would cost more). */
const SCAN_HERE_DRAWS = 65_536;
/**
 * Positions a page's walk is expected to visit below which it runs here; a longer one (a deep page,
 * matches spread thin) goes to a winners thread, so the event loop never walks for tens of ms.
 */
const WALK_HERE_STEPS = 16_384;

/**
 * The filters of one open session (`OpenSession.filter` / `filterAsync`): the filter index
 * (ADR 025), built on a winners thread at the first `filterAsync`, and the sort orders its pages are
 * walked in; until the index is there (or when there are too many draws for one), the scan of
 * `queryDraws` answers.
 */
export class SessionFilters {
  // the filter index, built on a winners thread at the first filter; null: too many draws
  private drawIndex: Promise<DrawIndex | null> | null = null;
  private builtIndex: DrawIndex | null = null;
  // the sort orders pages are walked in (ADR 025), each made on a winners thread at its first use
  private readonly sortOrders = new Map<number, Promise<Uint32Array>>();
  private closed = false;

  constructor(
    private readonly ctx: QueryContext,
    /** What every answer carries besides its page: the qualifying draws and the statistics. */
    private readonly extra: Pick<FilterAnswer, 'qualified' | 'stats'>,
    /** Throws once the session is closed. */
    private readonly ensureOpen: () => void,
  ) {}

  /** The answer in this thread: from the index once it is built, else by the scan. */
  here(query: FilterQuery): FilterAnswer {
    this.ensureOpen();
    const { ctx, builtIndex } = this;
    const page = builtIndex ? queryIndex(ctx, builtIndex, query) : queryDraws(ctx, query);
    return { ...page, ...this.extra };
  }

  /** The answer from the index (built at the first call), its remaining scan on the winners threads. */
  async answer(query: FilterQuery, signal?: AbortSignal): Promise<FilterAnswer> {
    this.ensureOpen();
    const index = await this.indexOf().catch(() => null);
    if (!index) return this.here(query);
    const plan = planQuery(this.ctx, index, query);
    return { ...(await this.answerPlan(index, plan, signal)), ...this.extra };
    // no second ensureOpen(): a session evicted meanwhile still answers what it was asked
  }

  /** Drops the index and the sort orders (the session closes); a build still running is not kept. */
  clear(): void {
    this.closed = true;
    this.drawIndex = null;
    this.builtIndex = null;
    this.sortOrders.clear();
  }

  private indexOf(): Promise<DrawIndex | null> {
    if (!this.drawIndex) {
      const made = buildDrawIndexOnThreads(this.ctx);
      this.drawIndex = made;
      made.then(
        (index) => void (this.closed || (this.builtIndex = index)),
        // a failed build is not kept: the next filter tries again (the scan answers meanwhile)
        () => this.drawIndex === made && (this.drawIndex = null),
      );
    }
    return this.drawIndex;
  }

  /**
   * The page by a walk of its sort's order (`walkPositions`): here when it is expected to be short
   * (`steps`), else on a winners thread; null when longer than `maxSteps`.
   */
  private async pageByWalk(
    index: DrawIndex,
    plan: IndexedQuery,
    matched: number,
    order: Uint32Array | null,
    maxSteps: number,
    steps: number,
  ) {
    const { ctx } = this;
    const positions =
      steps <= WALK_HERE_STEPS
        ? walkPositions(index, ctx.w, plan, matched, order, maxSteps)
        : await walkIndexOnThreads(index, ctx.w, plan, matched, order, maxSteps);
    return positions && pageOf(ctx, index, plan, matched, positions);
  }

  private sortOrderOf(index: DrawIndex, key: number): Promise<Uint32Array> {
    let order = this.sortOrders.get(key);
    if (!order) {
      const made = buildSortOrderOnThreads(index, key);
      made.catch(() => this.sortOrders.get(key) === made && this.sortOrders.delete(key));
      this.sortOrders.set(key, made);
      order = made;
    }
    return order;
  }

  /**
   * A planned filter's answer. A short run (under SCAN_HERE_DRAWS draws) here, from the index at once
   * or by a scan. A longer one: its count (bitsets here, a scan on the winners threads for winners
   * ranges), then its page by a walk of its sort's order (the index's own order, or a sort's when the
   * walk is short), on a winners thread unless the walk is short, else by the threads' scan of the
   * run with their best rows merged here.
   */
  private async answerPlan(index: DrawIndex, plan: IndexedQuery, signal?: AbortSignal) {
    const { ctx } = this;
    if (plan.to - plan.from < SCAN_HERE_DRAWS) {
      if (!needsScan(plan)) return answerInOrder(ctx, index, plan);
      const scanned = wordParts(plan, 1).map(([from, to]) =>
        scanPart(index, ctx.w, plan, from, to),
      );
      return answerFromParts(ctx, index, plan, scanned);
    }
    // a count through the bitsets is one streaming pass over a few words a draw (~1 ms at 3.4M
    // draws): here; winners ranges read a column per draw: on the threads
    const matched = plan.f.anyWinnerFilter
      ? (await scanIndexOnThreads(index, ctx.w, plan, signal, true)).reduce(
          (sum, part) => sum + part.matched,
          0,
        )
      : countHere(index, ctx.w, plan);
    const steps = walkSteps(index, plan, matched);
    // the index's own order, no step limit: never null
    if (!needsScan(plan))
      return (await this.pageByWalk(index, plan, matched, null, Infinity, steps))!;
    // a deep page over a long run: a walk of a few hundred thousand positions still costs less than
    // the threads' scan keeping that many rows in order
    const limit = Math.max(WALK_LIMIT, (plan.to - plan.from) / 8);
    if (steps <= limit) {
      const key = sortOrderKey(plan);
      const order = key === -2 ? null : await this.sortOrderOf(index, key);
      const walked = await this.pageByWalk(index, plan, matched, order, limit * WALK_SLACK, steps);
      if (walked) return walked;
    }
    return answerFromParts(ctx, index, plan, await scanIndexOnThreads(index, ctx.w, plan, signal));
  }
}
