import { INSIGHT_MAX_BUDGETS, type InsightAnswer, type InsightBody } from '@pa/contracts/power7';
import { histogramEdges, type BudgetBand } from '../../lib/insight';

/** Chances of exceeding the risk view answers at once: 1 in 100 … 1 in a million, and the worst draw. */
export const PRESET_EXCEED_TARGETS = [0.01, 0.001, 0.0001, 0.00001, 0.000001, 0] as const;
/** Expected shortfall at 99 %, 99.9 % and 99.99 %. */
export const SHORTFALL_LEVELS = [0.99, 0.999, 0.9999] as const;
/** Log-spaced amounts of the curve; the quantiles, the budget and the worst draw's edge come on top. */
const CURVE_STEPS = 38;

const QUANTILE_KEYS = ['50', '90', '95', '99', '99.9', '99.99', '99.999'] as const;
const toCents = (value: number) => Math.round(value * 100) / 100;

/**
 * The risk view's one question, given the overview (min, max, quantiles): the budgets of the
 * exceedance curve — amounts evenly spaced on log(1 + total) from the smallest to the largest total,
 * every quantile, the session's budget, and one cent below the largest total (how many draws pay the
 * worst amount) — at most INSIGHT_MAX_BUDGETS; the preset limits and the expected shortfalls.
 */
export function riskBodyFor(
  session: string,
  overview: Pick<InsightAnswer, 'min' | 'max' | 'quantiles'>,
  band: BudgetBand,
): InsightBody {
  const { min, max } = overview;
  const must = [
    band.max,
    ...QUANTILE_KEYS.map((k) => overview.quantiles[k]),
    ...(max - 0.01 >= min ? [toCents(max - 0.01)] : []),
  ].filter((amount) => amount >= min && amount <= max);
  const curve = histogramEdges(min, max, CURVE_STEPS);
  const budgets = [...new Set([...must.map(toCents), ...curve])]
    .slice(0, INSIGHT_MAX_BUDGETS)
    .sort((a, b) => a - b);
  return {
    session,
    budgets,
    exceedTargets: [...PRESET_EXCEED_TARGETS],
    shortfallLevels: [...SHORTFALL_LEVELS],
  };
}

/** One point of the exceedance curve: the exact chance that a draw pays more than `amount`. */
export interface ExceedancePoint {
  amount: number;
  /** Draws paying more than `amount`, and their share of all draws (> 0: the axis is logarithmic). */
  exceeding: number;
  chance: number;
}

/**
 * The curve's points, by amount: every budget asked with at least one draw above it (a chance of 0
 * has no place on a log axis; the worst draw is marked on its own, see `worstDrawPoint`).
 */
export function exceedanceCurve(answer: InsightAnswer): ExceedancePoint[] {
  return answer.budgets
    .filter((b) => b.exceeding > 0 && b.budget >= answer.min)
    .sort((a, b) => a.budget - b.budget)
    .map((b) => ({ amount: b.budget, exceeding: b.exceeding, chance: b.exceeding / answer.draws }));
}

/**
 * The worst draw on the curve: its total, and how many draws pay that much (the draws above one cent
 * below it — totals are whole cents). Null when the answer lacks that budget.
 */
export function worstDrawPoint(answer: InsightAnswer): ExceedancePoint | null {
  const below = answer.budgets.find((b) => toCents(b.budget) === toCents(answer.max - 0.01));
  if (!below || below.exceeding === 0) return null;
  return { amount: answer.max, exceeding: below.exceeding, chance: below.exceeding / answer.draws };
}

/** Powers of ten on the chance axis, from 1 (every draw) down to the one below 1 in `draws`. */
export function chanceTicks(draws: number): number[] {
  const lowest = Math.floor(Math.log10(1 / Math.max(1, draws)));
  return Array.from({ length: -lowest + 1 }, (_, i) => (i === 0 ? 0 : -i));
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A tick of the chance axis (its log10): "100 %", "10 %", "1 %", then "1 in 1K", "1 in 1M". */
export function chanceTickLabel(log10: number): string {
  if (log10 >= -2) return `${10 ** (log10 + 2)} %`;
  return `1 in ${compact.format(10 ** -log10)}`;
}
