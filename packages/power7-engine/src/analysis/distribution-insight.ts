import { QUANTILE_KEYS } from '@pa/contracts/power7-limits';
import { invariant } from '../core/errors';
import { HIST_BINS } from '../core/scan';
import type { DistributionQuery } from './distribution';

/** A total in units as an amount of currency (units × unit cents / 100). */
const amount = (units: number, unit: number) => (units * unit) / 100;

/** How one budget fares over every draw. */
export interface BudgetInsight {
  budget: number;
  /** Draws whose total is at most the budget. */
  covered: number;
  share: number;
  /** Share of draws whose total exceeds the budget. */
  exceedProbability: number;
  /** Mean over all draws of max(0, total − budget), rounded to the cent. */
  expectedExcess: number;
  /** Draws whose total exceeds the budget. */
  exceeding: number;
  /** Mean of total − budget over the draws that exceed it, rounded to the cent; null when none. */
  meanOvershoot: number | null;
}

export interface RangeInsight {
  min: number;
  max: number;
  /** Draws with min ≤ total ≤ max. */
  within: number;
  share: number;
  /** Draws with total < min, and total > max. */
  below: number;
  above: number;
}

/** The limit for a chance of exceeding: at most ⌊p × draws⌋ draws above `budget`. */
export interface ExceedLimit {
  exceedProbability: number;
  budget: number;
  /** Draws above `budget` (ties at it can make this fewer than ⌊p × draws⌋). */
  exceeding: number;
}

/** The smallest budget, to the cent, whose expected excess is at most `expectedExcess`. */
export interface ExcessLimit {
  expectedExcess: number;
  budget: number;
}

/** Expected shortfall: the mean of the `draws` largest totals, `draws` = ⌈(1 − level) × all⌉. */
export interface Shortfall {
  level: number;
  draws: number;
  value: number;
}

export type Quantiles = Record<(typeof QUANTILE_KEYS)[number], number>;

/** Cents of an amount of currency (at most 2 decimals, as payouts and budgets are). */
const cents = (amountOf: number) => Math.round(amountOf * 100);

/** `a / b` rounded half up, for non-negative bigints. */
const divRound = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

export async function budgetInsight(
  query: DistributionQuery,
  budget: number,
): Promise<BudgetInsight> {
  const { draws, unit } = query.index;
  const budgetCents = cents(budget);
  // a total of t units is within the budget when t·unit ≤ budget in cents
  const below = await query.atMost(Math.floor(budgetCents / unit));
  const above = draws - below.count;
  const allSum = (await query.atMost(Infinity)).sum;
  const excessCents = BigInt(unit) * (allSum - below.sum) - BigInt(budgetCents) * BigInt(above);
  return {
    budget,
    covered: below.count,
    share: below.count / draws,
    exceedProbability: above / draws,
    expectedExcess: Number(divRound(excessCents, BigInt(draws))) / 100,
    exceeding: above,
    meanOvershoot: above > 0 ? Number(divRound(excessCents, BigInt(above))) / 100 : null,
  };
}

export async function rangeInsight(
  query: DistributionQuery,
  min: number,
  max: number,
): Promise<RangeInsight> {
  const { draws, unit } = query.index;
  const upTo = await query.atMost(Math.floor(cents(max) / unit));
  // below min: totals t with t·unit < min in cents
  const belowMin = await query.atMost(Math.ceil(cents(min) / unit) - 1);
  const within = Math.max(0, upTo.count - belowMin.count);
  return {
    min,
    max,
    within,
    share: within / draws,
    below: belowMin.count,
    above: draws - upTo.count,
  };
}

/**
 * A non-negative finite number as an exact fraction of its shortest decimal form (what was typed:
 * 0.29 is 29/100, not the binary double just below it), so ⌊p × draws⌋ is the count a person expects.
 */
export function decimalFraction(x: number): { num: bigint; den: bigint } {
  invariant(Number.isFinite(x) && x >= 0, 'a decimal fraction needs a finite number ≥ 0');
  const [mantissa, exponent = '0'] = x.toString().split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  const exp = Number(exponent) - fraction.length;
  const digits = BigInt(whole! + fraction);
  return exp >= 0
    ? { num: digits * 10n ** BigInt(exp), den: 1n }
    : { num: digits, den: 10n ** BigInt(-exp) };
}

/** The smallest total B with at most ⌊p × draws⌋ draws above it (p = 0: the worst draw). */
export async function exceedLimit(query: DistributionQuery, p: number): Promise<ExceedLimit> {
  const { draws, unit } = query.index;
  const { num, den } = decimalFraction(p);
  invariant(num < den, 'a chance of exceeding is below 1');
  const allowedAbove = Number((num * BigInt(draws)) / den);
  // at least draws − allowedAbove totals must be ≤ B: B is the (draws − allowedAbove)-th smallest
  const units = await query.kth(draws - allowedAbove);
  const covered = (await query.atMost(units)).count;
  return { exceedProbability: p, budget: amount(units, unit), exceeding: draws - covered };
}

/** ⌈a / b⌉ for bigints, b > 0. */
const ceilDiv = (a: bigint, b: bigint) => (a >= 0n ? (a + b - 1n) / b : -(-a / b));

/**
 * The smallest budget in cents whose expected excess is at most `target`: the excess sum
 * Σ max(0, t − B) falls as B grows (continuous, linear between totals), so the bin where it crosses
 * draws × target is found from the bins' counts and sums alone, and the crossing inside that bin from
 * its sorted totals — one bin read.
 */
export async function excessLimit(query: DistributionQuery, target: number): Promise<ExcessLimit> {
  const { draws, unit, shift } = query.index;
  const width = 2 ** shift;
  const u = BigInt(unit);
  // compare Σ excess (cents) with draws × target as fractions: excess·den ≤ num·draws
  const { num, den } = decimalFraction(target);
  const allowed = num * BigInt(100) * BigInt(draws); // in cents × den
  /** Σ max(0, t − B) in cents × den for B (cents) when `count` draws of total Σ `sum` units lie above. */
  const excessAt = (b: bigint, count: number, sum: bigint) => (u * sum - b * BigInt(count)) * den;
  // the first bin edge (budget = i·width units, in cents) whose excess is within the target
  let lo = 0;
  let hi = HIST_BINS;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const { count, sum } = query.fromBin(mid);
    if (excessAt(BigInt(mid * width) * u, count, sum) <= allowed) hi = mid;
    else lo = mid + 1;
  }
  const result = (cents: bigint) => ({ expectedExcess: target, budget: Number(cents) / 100 });
  if (lo === 0) return result(0n);
  // the crossing lies in bin lo − 1: walk its totals, B in [at, next] has a fixed set above it
  const bin = lo - 1;
  let { count, sum } = query.fromBin(bin);
  let at = BigInt(bin * width) * u;
  const totals = await query.sortedBin(bin);
  for (let j = 0; j <= totals.length; j++) {
    const next = j < totals.length ? BigInt(totals[j]!) * u : BigInt(lo * width) * u;
    // draws exactly at `at` are no longer above it
    if (count === 0) return result(at);
    // smallest b ≥ at with (u·sum − b·count)·den ≤ allowed
    const b = ceilDiv(u * sum * den - allowed, BigInt(count) * den);
    const best = b > at ? b : at;
    if (best <= next || j === totals.length) return result(best);
    at = next;
    // the totals equal to `next` stop counting as above once B reaches them
    while (j < totals.length && BigInt(totals[j]!) * u === next) {
      count--;
      sum -= BigInt(totals[j]!);
      j++;
    }
    j--;
  }
  return result(at);
}

/** Expected shortfall at `level`: the mean of the ⌈(1 − level) × draws⌉ largest totals. */
export async function shortfall(query: DistributionQuery, level: number): Promise<Shortfall> {
  const { draws, unit } = query.index;
  const { num, den } = decimalFraction(level);
  invariant(num > 0n && num < den, 'a shortfall level lies strictly between 0 and 1');
  const k = Number(ceilDiv((den - num) * BigInt(draws), den));
  const largest = query.total - (await query.sumSmallest(draws - k));
  return {
    level,
    draws: k,
    value: Number(divRound(largest * BigInt(unit), BigInt(k))) / 100,
  };
}

/**
 * Quantile q: the smallest total T such that at least q % of draws have a total ≤ T, i.e. the
 * ⌈q·N/100⌉-th smallest total, as an amount of currency.
 */
export async function quantiles(query: DistributionQuery): Promise<Quantiles> {
  const { draws, unit } = query.index;
  const out = {} as Quantiles;
  // asked all at once: a reader may fetch the bins together (`scannedBins`: one pass)
  const values = await Promise.all(
    QUANTILE_KEYS.map((q) => {
      // ⌈q·N/100⌉ in integers
      const { num, den } = decimalFraction(Number(q));
      const k = Number(ceilDiv(num * BigInt(draws), den * 100n));
      return query.kth(Math.max(1, k));
    }),
  );
  QUANTILE_KEYS.forEach((q, i) => (out[q] = amount(values[i]!, unit)));
  return out;
}
