import {
  amountTextProblem,
  INSIGHT_MAX_BUDGETS,
  MAX_AMOUNT,
  type InsightAnswer,
  type InsightBody,
  type SessionParams,
} from '@pa/contracts/power7';

/** The session's budget as the insight reads it: at most `max`, and for a range at least `min`. */
export interface BudgetBand {
  min: number | null;
  max: number;
}

/** What a session's insight and risk sections are given: the session, its budget, its currency. */
export interface SessionBand {
  session: string;
  band: BudgetBand;
  currency?: string;
}

export const budgetBandOf = (params: SessionParams): BudgetBand =>
  params.budget_type === 'fixed'
    ? { min: null, max: params.budget ?? 0 }
    : { min: params.budget_min ?? 0, max: params.budget_max ?? 0 };

/** Bins of the histogram: enough to show the shape, few enough to leave budgets for the question. */
export const HISTOGRAM_BINS = 36;

const toCents = (value: number) => Math.round(value * 100) / 100;

/**
 * Bin edges from `min` to `max`, evenly spaced on a log(1 + total) scale so a heavy tail (one draw
 * paying far above the rest) keeps bins of its own instead of squeezing every other draw into the
 * first bar; on a flat file the spacing is close to even. `extra` amounts (the budget) become edges
 * too, so no bin straddles them. Edges are whole cents (the service's amounts), strictly rising,
 * first `min`, last `max`.
 */
export function histogramEdges(
  min: number,
  max: number,
  bins = HISTOGRAM_BINS,
  extra: number[] = [],
): number[] {
  if (!(max > min)) return [min];
  const [lo, hi] = [Math.log1p(Math.max(0, min)), Math.log1p(max)];
  const edges = new Set<number>([min, max]);
  for (let i = 1; i < bins; i++) edges.add(toCents(Math.expm1(lo + ((hi - lo) * i) / bins)));
  for (const amount of extra) edges.add(toCents(amount));
  return [...edges].filter((edge) => edge >= min && edge <= max).sort((a, b) => a - b);
}

/** The insight question of the results screen: every edge (as a budget), the session's budget and its range. */
export function insightBodyFor(session: string, edges: number[], band: BudgetBand): InsightBody {
  const budgets = [...new Set([...edges, band.max])].slice(0, INSIGHT_MAX_BUDGETS);
  return {
    session,
    budgets,
    ...(band.min !== null ? { ranges: [{ min: band.min, max: band.max }] } : {}),
  };
}

export interface HistogramBin {
  /** Totals in (from, to]; the first bin also holds `from` itself. */
  from: number;
  to: number;
  draws: number;
}

const coveredAt = (answer: InsightAnswer) =>
  new Map(answer.budgets.map((b) => [toCents(b.budget), b.covered]));

/** Exact bin counts from the draws covered at each edge (covered(to) − covered(from)). */
export function histogramBins(answer: InsightAnswer, edges: number[]): HistogramBin[] {
  const covered = coveredAt(answer);
  if (edges.length < 2) return [{ from: answer.min, to: answer.max, draws: answer.draws }];
  const bins: HistogramBin[] = [];
  for (let i = 1; i < edges.length; i++) {
    const [from, to] = [edges[i - 1]!, edges[i]!];
    const below = i === 1 ? 0 : (covered.get(from) ?? 0);
    bins.push({ from, to, draws: (covered.get(to) ?? 0) - below });
  }
  return bins;
}

/** One point of the budget curve: the exact share of draws whose total is at most `budget`. */
export interface CurvePoint {
  budget: number;
  share: number;
  covered: number;
}

export function budgetCurve(answer: InsightAnswer): CurvePoint[] {
  return [...answer.budgets]
    .filter((b) => b.budget >= answer.min && b.budget <= answer.max)
    .sort((a, b) => a.budget - b.budget)
    .map((b) => ({ budget: b.budget, share: b.share, covered: b.covered }));
}

/** The position of an amount on the charts' log(1 + total) axis. */
export const logPosition = (amount: number) => Math.log1p(Math.max(0, amount));
export const amountAt = (position: number) => Math.expm1(position);

/**
 * What the session's budget covers: for a fixed budget the draws whose total is at most it; for a
 * range the draws whose total lies between its minimum and its maximum (both count).
 */
export interface Coverage {
  draws: number;
  share: number;
  exceedProbability: number;
  expectedExcess: number;
  /** Draws paying more than the budget (its maximum), and their mean overshoot (null when none). */
  exceeding: number;
  meanOvershoot: number | null;
  /** A range's draws paying less than its minimum, and more than its maximum. */
  below?: number;
  above?: number;
}

export function coverageOf(answer: InsightAnswer, band: BudgetBand): Coverage | null {
  const ceiling = answer.budgets.find((b) => toCents(b.budget) === toCents(band.max));
  if (!ceiling) return null;
  const excess = {
    exceedProbability: ceiling.exceedProbability,
    expectedExcess: ceiling.expectedExcess,
    exceeding: ceiling.exceeding,
    meanOvershoot: ceiling.meanOvershoot,
  };
  if (band.min === null) return { draws: ceiling.covered, share: ceiling.share, ...excess };
  const range = answer.ranges.find(
    (r) => toCents(r.min) === toCents(band.min!) && toCents(r.max) === toCents(band.max),
  );
  return range
    ? {
        draws: range.within,
        share: range.share,
        ...excess,
        below: range.below,
        above: range.above,
      }
    : null;
}

/** Why nothing qualifies, in words a person can act on, or null when some draws do. */
export function nothingQualifiesReason(
  band: BudgetBand,
  smallestTotal: number,
  format: (amount: number) => string,
): string {
  if (band.max < smallestTotal) {
    return `The budget (${format(band.max)}) is below the smallest total payout of any draw, ${format(smallestTotal)}: every draw pays more. A budget of at least ${format(smallestTotal)} covers the cheapest draw.`;
  }
  return `No draw's total payout lies between ${format(band.min ?? 0)} and ${format(band.max)}. The smallest total is ${format(smallestTotal)}.`;
}

/**
 * An amount typed in the "Try a budget" box, by the same rule as the parameters form: digits with at
 * most two decimals; "10,000" is refused with the way to write it (it is ambiguous across locales).
 */
export function parseTypedAmount(
  text: string,
  what = 'The budget',
): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: `${what} is required.` };
  if (!/^\+?(\d+(\.\d{0,2})?|\.\d{1,2})$/.test(trimmed)) {
    return { error: amountTextProblem(what, trimmed) };
  }
  const value = Number(trimmed);
  return value <= MAX_AMOUNT ? { value } : { error: `${what} must not exceed ${MAX_AMOUNT}.` };
}

export const QUANTILE_LABELS: { key: keyof InsightAnswer['quantiles']; label: string }[] = [
  { key: 50, label: '50 % (median)' },
  { key: 90, label: '90 %' },
  { key: 95, label: '95 %' },
  { key: 99, label: '99 %' },
  { key: '99.9', label: '99.9 %' },
  { key: '99.99', label: '99.99 %' },
  { key: '99.999', label: '99.999 %' },
];
