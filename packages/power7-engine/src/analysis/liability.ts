import { distinctTickets, drawsOfRanks } from '../core/exposure';
import { drawsReaching, passOverLine, type LinePass } from '../core/line-pass';
import { sellInOrder, type RangeTuning } from '../core/liability';
import { payByMasks, payByTickets, worstAfterRefusals } from '../core/worst-after';
import { masksWhere } from '../core/shared-numbers';
import { acceptInOrder, payoutsGrowWithMatches } from '../core/sales-order';
import { formatCombo, PICK, ticketsWhere } from '../core/model';
import { everyDrawTotal, type ExposureBase, type ExposureInput } from './exposure';
import { unitsToAmount } from '../core/weights';

/** A draw and its total payout in currency. */
export interface DrawTotal {
  combo: string;
  totalPayout: number;
}

/** What the liability limit in sales order does to a file (docs/product/services.md "Liability limit"). */
export interface LimitRun {
  limit: number;
  tickets: number;
  accepted: number;
  refused: number;
  worstBefore: DrawTotal;
  worstAfter: DrawTotal;
  /** The refused tickets (indexes in file order). */
  refusedTickets: Uint32Array;
  /**
   * Per refused ticket, the draw it would push highest past the limit and that total in currency:
   * worked out when first asked (the refused rows' file), by the slower walk that finds them.
   */
  breaches(): Promise<{ draws: string[]; totals: Float64Array }>;
  /** Per ticket, 1 when refused. */
  refusedMask: Uint8Array;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The tickets a liability limit refuses in sales order, exactly: only the draws whose total with
 * every ticket is above the limit can be breached, so only they are followed (`core/liability.ts`).
 * `progress` hears the tickets decided so far, between ranges of the sales-order walk (the worst
 * draw after comes once every ticket is decided).
 */
export async function limitRun(
  input: ExposureInput,
  limit: number,
  tuning?: Partial<RangeTuning>,
  base?: Pick<ExposureBase, 'totals' | 'unit' | 'w' | 'worst'>,
  progress?: (decided: number) => void,
): Promise<LimitRun> {
  const { totals, unit, w, worst } = base ?? (await everyDrawTotal(input));
  const line = Math.floor(Math.round(limit * 100) / unit);
  // the hot draws, and the highest totals under the line for the worst draw after (one pass)
  const pass = passOverLine(totals, line);
  const hot = drawsOfRanks(pass.hot, input.pool);
  const sales = {
    tickets: input.tickets,
    count: input.count,
    pool: input.pool,
    w,
    limit: line,
    hot,
    ...(tuning ? { tuning } : {}),
  };
  const hotCombo = (d: number) => formatCombo(hot.subarray(d * PICK, d * PICK + PICK));
  let walked: Promise<{ draws: string[]; totals: Float64Array }> | undefined;
  const walkBreaches = () =>
    (walked ??= sellInOrder(sales, yieldToLoop).then((all) => ({
      draws: Array.from(all.breachDraw, hotCombo),
      totals: Float64Array.from(all.breachTotal, (t) => unitsToAmount(t, unit)),
    })));
  const pause = (decided: number) => {
    progress?.(decided);
    return yieldToLoop();
  };
  // the decisions alone are much cheaper where the closed-subset test is exact (ADR 021)
  const sold = payoutsGrowWithMatches(w)
    ? await acceptInOrder(sales, pause)
    : await sellInOrder(sales, pause);
  // no hot draw: every ticket is accepted without a range walked
  progress?.(input.count);
  const refusedTickets = new Uint32Array(sold.refusedCount);
  for (let t = 0, k = 0; t < input.count; t++) if (sold.refused[t]) refusedTickets[k++] = t;
  const after = await worstAfter(input, pass, {
    totals,
    hot,
    sold,
    refusedTickets,
    w,
    unit,
    tuning,
    worst,
  });
  return {
    limit,
    tickets: input.count,
    accepted: input.count - sold.refusedCount,
    refused: sold.refusedCount,
    worstBefore: worst,
    worstAfter: after,
    refusedTickets,
    breaches: walkBreaches,
    refusedMask: sold.refused,
  };
}

/** Draws × refused tickets above which the accepted tickets are analysed instead (~one analysis). */
const WORST_WALK_WORK = 50_000_000;
/** Draws whose refused payouts are read from the tickets rather than from masks made first. */
const FEW_BY_TICKETS = 4;
/** Nor are more draws than this followed one by one. */
const MOST_CANDIDATES = 1 << 16;

/**
 * The worst draw with the accepted tickets: the walk of `worstAfterRefusals` (every draw that could
 * beat the hot draws' best, less its refused tickets' payouts) where that is cheap — the usual case,
 * the hot draws filled up to the limit — else one analysis of the accepted tickets (a pool of 49, or
 * a limit that refuses nearly everything, left millions of draws × thousands of refused tickets).
 */
async function worstAfter(
  input: ExposureInput,
  pass: LinePass,
  run: {
    totals: Float64Array;
    hot: Uint8Array;
    sold: { refused: Uint8Array; refusedCount: number; hotTotals: Float64Array };
    refusedTickets: Uint32Array;
    w: ArrayLike<number>;
    unit: number;
    tuning: Partial<RangeTuning> | undefined;
    worst: DrawTotal;
  },
): Promise<DrawTotal> {
  const { totals, hot, sold, w, unit } = run;
  // nothing refused: no draw was above the limit, every ticket is kept
  if (sold.refusedCount === 0) return run.worst;
  let bestHot = 0;
  for (const t of sold.hotTotals) bestHot = Math.max(bestHot, t);
  const work = run.tuning?.worstWalkWork ?? WORST_WALK_WORK;
  const most = Math.min(MOST_CANDIDATES, Math.floor(work / sold.refusedCount));
  const candidates = drawsReaching(pass, totals, bestHot, most);
  if (candidates) {
    const after = worstAfterRefusals(
      totals,
      hot,
      sold.hotTotals,
      // a few draws: read from the tickets; more: from their masks, made once
      candidates.length <= FEW_BY_TICKETS
        ? payByTickets(input.tickets, run.refusedTickets, w)
        : payByMasks(masksWhere(input.tickets, sold.refused, sold.refusedCount), w),
      candidates,
    );
    return { combo: formatCombo(after.numbers), totalPayout: unitsToAmount(after.total, unit) };
  }
  const accepted = ticketsWhere(input.tickets, sold.refused, false);
  if (accepted.length === 0) return { combo: formatCombo([1, 2, 3, 4, 5, 6, 7]), totalPayout: 0 };
  // the stored count tables are those of every ticket: not of the accepted ones
  const { loadCounts: _all, ...uncounted } = input;
  void _all;
  const { worst } = await everyDrawTotal({
    ...uncounted,
    tickets: accepted,
    count: accepted.length / PICK,
  });
  return worst;
}

/** The cap per combination that fits a limit (docs/product/services.md "Cap per combination"). */
export interface CapRun {
  limit: number;
  /** Most copies of one combination. */
  maxCopies: number;
  /** The largest k ≥ 1 whose first k copies of each combination keep every draw ≤ limit; 0 if none. */
  cap: number;
  worstAtCap: DrawTotal | null;
  /** Tickets past the cap: Σ max(0, copies − cap). */
  refused: number;
}

/**
 * The largest cap that fits, by bisection over k: each try is one analysis of the file with every
 * combination cut to its first k copies (the worst draw's total grows with k).
 */
export async function capRun(input: ExposureInput, limit: number): Promise<CapRun> {
  const distinct = distinctTickets(input.tickets, input.count);
  const maxCopies = distinct.copies.reduce((m, c) => Math.max(m, c), 0);
  const limitCents = Math.round(limit * 100);
  // the stored count tables are those of every ticket: not of a capped file
  const { loadCounts: _all, ...uncounted } = input;
  void _all;
  const worstAt = async (k: number) => {
    const kept = keepFirstCopies(input.tickets, input.count, distinct.of, k);
    const { worst } = await everyDrawTotal({
      ...uncounted,
      tickets: kept.tickets,
      count: kept.count,
    });
    return worst;
  };
  const fits = (worst: DrawTotal) => Math.round(worst.totalPayout * 100) <= limitCents;
  let found: { k: number; worst: DrawTotal } | null = null;
  const atMost = await worstAt(maxCopies);
  if (fits(atMost)) found = { k: maxCopies, worst: atMost };
  else {
    let lo = 1;
    let hi = maxCopies - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const worst = await worstAt(mid);
      if (fits(worst)) {
        found = { k: mid, worst };
        lo = mid + 1;
      } else hi = mid - 1;
    }
  }
  const cap = found?.k ?? 0;
  let refused = 0;
  for (const c of distinct.copies) refused += Math.max(0, c - cap);
  return { limit, maxCopies, cap, worstAtCap: found?.worst ?? null, refused };
}

/** Per ticket in file order, 1 when it is among the first k copies of its combination. */
export function firstCopiesMask(of: Uint32Array, count: number, k: number): Uint8Array {
  const seen = new Uint32Array(of.reduce((m, v) => Math.max(m, v + 1), 0));
  const keep = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    const c = of[t]!;
    if (seen[c]! >= k) continue;
    seen[c] = seen[c]! + 1;
    keep[t] = 1;
  }
  return keep;
}

/** The tickets with each combination's copies after its first k left out, in file order. */
function keepFirstCopies(tickets: Uint8Array, count: number, of: Uint32Array, k: number) {
  const kept = ticketsWhere(tickets, firstCopiesMask(of, count, k));
  return { tickets: kept, count: kept.length / PICK };
}
