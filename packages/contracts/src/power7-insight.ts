import { z } from 'zod';
import { amountNumber } from './power7-amounts';
import { winnerCounts } from './power7-draws';
import {
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  MAX_AMOUNT,
} from './power7-limits';

/** Exact budget questions over every draw of a finished session (`POST /api/insight/`). */

const num = z.number();

/** `POST /api/insight/`: exact budget questions over every draw of a finished session. */
export const insightBodySchema = z.strictObject({
  session: z.string().min(1).max(100).optional(),
  budgets: z.array(amountNumber).max(INSIGHT_MAX_BUDGETS).optional(),
  ranges: z
    .array(
      z.strictObject({ min: amountNumber, max: amountNumber }).refine((r) => r.min <= r.max, {
        message: 'min must not be greater than max',
        path: ['max'],
      }),
    )
    .max(INSIGHT_MAX_RANGES)
    .optional(),
  /** Chances of exceeding (0 ≤ p < 1): the limit whose draws above it are at most ⌊p × draws⌋. */
  exceedTargets: z
    .array(
      z
        .number({ error: 'A chance of exceeding must be a number.' })
        .min(0, 'A chance of exceeding must be at least 0.')
        .lt(1, 'A chance of exceeding must be less than 1 (100 %).'),
    )
    .max(
      INSIGHT_MAX_EXCEED_TARGETS,
      `Ask for at most ${INSIGHT_MAX_EXCEED_TARGETS} chances of exceeding at once.`,
    )
    .optional(),
  /** Expected excesses (≥ 0, currency): the smallest budget whose expected excess is at most it. */
  excessTargets: z
    .array(
      z
        .number({ error: 'An expected excess must be an amount.' })
        .min(0, 'An expected excess must be at least 0.')
        .max(MAX_AMOUNT, `An expected excess must be at most ${MAX_AMOUNT.toLocaleString('en')}.`),
    )
    .max(
      INSIGHT_MAX_EXCESS_TARGETS,
      `Ask for at most ${INSIGHT_MAX_EXCESS_TARGETS} expected excesses at once.`,
    )
    .optional(),
  /** Levels q (0 < q < 1): the mean of the ⌈(1 − q) × draws⌉ largest totals (expected shortfall). */
  shortfallLevels: z
    .array(
      z
        .number({ error: 'A shortfall level must be a number.' })
        .gt(0, 'A shortfall level must be more than 0.')
        .lt(1, 'A shortfall level must be less than 1 (100 %).'),
    )
    .max(
      INSIGHT_MAX_SHORTFALL_LEVELS,
      `Ask for at most ${INSIGHT_MAX_SHORTFALL_LEVELS} shortfall levels at once.`,
    )
    .optional(),
});
export type InsightBody = z.input<typeof insightBodySchema>;

export const insightAnswerSchema = z.object({
  /** Every draw is equally likely: shares and probabilities are counts over all of them. */
  draws: num,
  min: num,
  max: num,
  mean: num,
  quantiles: z.object({
    50: num,
    90: num,
    95: num,
    99: num,
    '99.9': num,
    '99.99': num,
    '99.999': num,
  }),
  /** Draws with at least one 7-match winner, and their share of all draws. */
  jackpotDraws: num,
  jackpotShare: num,
  worst: z.object({ combo: z.string(), totalPayout: num, winners: winnerCounts }),
  budgets: z.array(
    z.object({
      budget: num,
      /** Draws whose total payout is at most the budget. */
      covered: num,
      share: num,
      exceedProbability: num,
      /** Mean over all draws of max(0, total − budget), to the cent. */
      expectedExcess: num,
      /** Draws whose total exceeds the budget (all draws minus covered). */
      exceeding: num,
      /** Mean of total − budget over the draws that exceed it, to the cent; null when none does. */
      meanOvershoot: num.nullable(),
    }),
  ),
  ranges: z.array(
    z.object({
      min: num,
      max: num,
      within: num,
      share: num,
      /** Draws whose total is less than min, and more than max. */
      below: num,
      above: num,
    }),
  ),
  /** Per `exceedTargets`: the smallest total with at most ⌊p × draws⌋ draws above it. */
  limits: z.array(z.object({ exceedProbability: num, budget: num, exceeding: num })),
  /** Per `excessTargets`: the smallest budget (to the cent) whose expected excess is at most it. */
  excessLimits: z.array(z.object({ expectedExcess: num, budget: num })),
  /** Per `shortfallLevels`: the mean of the ⌈(1 − level) × draws⌉ largest totals, to the cent. */
  shortfall: z.array(z.object({ level: num, draws: num, value: num })),
});
export type InsightAnswer = z.infer<typeof insightAnswerSchema>;
