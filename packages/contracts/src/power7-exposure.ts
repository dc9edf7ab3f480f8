import { z } from 'zod';
import { MAX_AMOUNT } from './power7-limits';

const num = z.number();

/** What the exposure ranking groups by: each distinct combination, or the file's customer ids. */
export const EXPOSURE_BY = ['combination', 'customer'] as const;
export type ExposureBy = (typeof EXPOSURE_BY)[number];
export const EXPOSURE_DEFAULT_LIMIT = 100;
export const EXPOSURE_MAX_LIMIT = 1000;

/**
 * `POST /api/power7/sessions/:id/exposure/`: where the tail comes from — the draws whose total is
 * above `over`, and the combinations or customers whose payouts make them up, largest first.
 */
export const exposureBodySchema = z.strictObject({
  over: z
    .number({ error: 'The line must be an amount.' })
    .min(0, 'The line must be at least 0.')
    .max(MAX_AMOUNT, `The line must be at most ${MAX_AMOUNT.toLocaleString('en')}.`),
  by: z.enum(EXPOSURE_BY, { error: 'Rank by "combination" or by "customer".' }),
  limit: z
    .number({ error: 'The limit must be a whole number.' })
    .int('The limit must be a whole number.')
    .min(1, 'The limit must be at least 1.')
    .max(EXPOSURE_MAX_LIMIT, `The limit must be at most ${EXPOSURE_MAX_LIMIT}.`)
    .default(EXPOSURE_DEFAULT_LIMIT),
});
export type ExposureBody = z.input<typeof exposureBodySchema>;

export const exposureItemSchema = z.object({
  /** `by: combination`: the combination (ascending numbers joined by `-`). */
  combo: z.string().optional(),
  /** `by: customer`: the customer id as written in the file, and the first name given for it. */
  customerId: z.string().optional(),
  name: z.string().optional(),
  /** Tickets of this combination (its copies) or of this customer. */
  tickets: num,
  /** `by: combination`: draws over the line where it wins (≥ 3 matches). */
  drawsWon: num.optional(),
  /** Its payouts summed over the draws over the line (all its tickets). */
  tailPayout: num,
  /** tailPayout / tailTotal. */
  share: num,
});
export type ExposureItem = z.infer<typeof exposureItemSchema>;

export const exposureAnswerSchema = z.object({
  over: num,
  by: z.enum(EXPOSURE_BY),
  /** Draws whose total is above the line, and their totals summed. */
  draws: num,
  tailTotal: num,
  /** Combinations or customers with a payout in those draws (items holds the first `limit`). */
  ranked: num,
  items: z.array(exposureItemSchema),
});
export type ExposureAnswer = z.infer<typeof exposureAnswerSchema>;
