import { z } from 'zod';
import { hasAtMostTwoDecimals } from './power7-amounts';
import { MAX_AMOUNT } from './power7-limits';

/** The liability limit: what a limit on a draw's total refuses, the cap per combination, applying it. */

const num = z.number();

const limitRules = (amount: z.ZodNumber) =>
  amount
    .min(0, 'The limit must be at least 0.')
    .max(MAX_AMOUNT, `The limit must be at most ${MAX_AMOUNT.toLocaleString('en')}.`)
    .refine(hasAtMostTwoDecimals, 'The limit may have at most two decimals.');

/** A liability limit: the most a draw may pay in total (an amount, ≤ 2 decimals). */
export const liabilityLimit = limitRules(z.number({ error: 'The limit must be an amount.' }));

/** `POST /api/power7/sessions/:id/limit/` and `…/cap/`. */
export const limitBodySchema = z.strictObject({ limit: liabilityLimit });
export type LimitBody = z.input<typeof limitBodySchema>;

const drawTotalSchema = z.object({ combo: z.string(), totalPayout: num });

/** What a liability limit does to the file, tickets taken in sales (file) order. */
export const limitAnswerSchema = z.object({
  limit: num,
  tickets: num,
  accepted: num,
  refused: num,
  /** The worst draw with every ticket, and with the accepted ones. */
  worstBefore: drawTotalSchema,
  worstAfter: drawTotalSchema,
});
export type LimitAnswerView = z.infer<typeof limitAnswerSchema>;

/**
 * A limit run that did not finish within the service's wait (202): where to ask for it, and how
 * far it is — tickets decided in sales order so far, of all the session's tickets.
 */
export const limitJobSchema = z.object({
  resultUrl: z.string().meta({
    examples: ['/api/power7/sessions/019a6b2e-7c1d-7f3a-9b4e-2d8c5a1f0e63/limit/?limit=1500000'],
  }),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
});
export type LimitJobView = z.infer<typeof limitJobSchema>;

/** `GET` of a limit run's `resultUrl`. */
export const limitQuerySchema = z.object({
  limit: limitRules(z.coerce.number({ error: 'The limit must be an amount.' })),
});

/** The largest number of copies of each combination (first ones in file order) that fits the limit. */
export const capAnswerSchema = z.object({
  limit: num,
  maxCopies: num,
  cap: num,
  worstAtCap: drawTotalSchema.nullable(),
  refused: num,
});
export type CapAnswerView = z.infer<typeof capAnswerSchema>;

/** `POST /api/power7/sessions/:id/limit/apply/`: a new session of the tickets a limit keeps. */
export const limitApplySchema = z.strictObject({
  limit: liabilityLimit,
  mode: z
    .enum(['sales-order', 'cap'], { error: 'The mode must be "sales-order" or "cap".' })
    .default('sales-order'),
});
export type LimitApplyBody = z.input<typeof limitApplySchema>;
