import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, paginatedSchema } from './list-query';
import { MAX_POOL, SORT_KEYS } from './power7-limits';

/** The draws of a finished session: filtering and ranking them, their statistics, and their winners. */

const num = z.number();

export const winnerCounts = z.object({ 3: num, 4: num, 5: num, 6: num, 7: num });

export const drawRowSchema = z.object({
  combo: z.string(),
  numbers: z.array(num),
  winners: winnerCounts,
  totalPayout: num,
});
export type DrawRow = z.infer<typeof drawRowSchema>;

export const statsSchema = z.object({
  draws: num,
  min: num,
  mean: num,
  max: num,
  worstDraw: drawRowSchema,
  /** Draws per total payout over ALL draws: bin i counts totals in [edges[i], edges[i+1]). */
  histogram: z.object({ edges: z.array(num), counts: z.array(num) }),
  /** The same exact counts in up to 512 finer bins, for the budget curve (absent in older results). */
  curve: z.object({ edges: z.array(num), counts: z.array(num) }).optional(),
});
export type DrawStats = z.infer<typeof statsSchema>;

// Strict objects: an unknown key (a typo, `winners: { 9: … }`) is a 400 naming it, never a filter
// silently ignored (which would answer every draw).
const range = z
  .strictObject({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
    message: 'min must not be greater than max',
    path: ['max'],
  });

const poolNumber = z.number().int().min(1).max(MAX_POOL);

export const drawFiltersSchema = z.strictObject({
  winners: z
    .strictObject({
      3: range.optional(),
      4: range.optional(),
      5: range.optional(),
      6: range.optional(),
      7: range.optional(),
    })
    .optional(),
  totalPayout: range.optional(),
  mustInclude: z.array(poolNumber).max(7).optional(),
  mustExclude: z.array(poolNumber).max(42).optional(),
});
export type DrawFilters = z.infer<typeof drawFiltersSchema>;

/** The filter request (`POST /api/filter/`). */
export const filterBodySchema = z.strictObject({
  session: z.string().min(1).max(100).optional(),
  filters: drawFiltersSchema.optional(),
  /** `field:order`, e.g. `totalPayout:desc` (the list protocol's wire form). */
  sort: z
    .string()
    .regex(
      new RegExp(`^(${SORT_KEYS.join('|')}):(asc|desc)$`),
      `sort must be field:order with field one of ${SORT_KEYS.join(', ')}`,
    )
    .optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type FilterBody = z.input<typeof filterBodySchema>;

export const filterAnswerSchema = paginatedSchema(drawRowSchema).extend({
  qualified: num,
  stats: statsSchema,
});
export type FilterAnswerView = z.infer<typeof filterAnswerSchema>;

export const winnerRowSchema = z.object({
  line: num,
  customerId: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  numbers: z.array(num),
  matchType: num,
  matched: z.array(num),
  payout: num,
  columns: z.record(z.string(), z.string()),
});
export type WinnerRow = z.infer<typeof winnerRowSchema>;

export const winnersAnswerSchema = paginatedSchema(winnerRowSchema).extend({
  combo: z.string(),
  matchType: num,
  session: z.string(),
});
export type WinnersAnswer = z.infer<typeof winnersAnswerSchema>;

export const comboParam = z
  .string()
  .min(1)
  .max(40)
  .meta({ examples: ['3-7-12-19-24-31-35'] });
const MATCH_TYPE_MESSAGE = 'The match type must be 3, 4, 5, 6 or 7.';
/** Exactly `3`..`7` (not `03`, `3.0` or ` 3`): one spelling per resource. */
export const matchTypeParam = z
  .enum(['3', '4', '5', '6', '7'], { message: MATCH_TYPE_MESSAGE })
  .meta({ examples: ['5'] })
  .transform(Number);
