import { z } from 'zod';
import { envelopeSchema } from '@pa/contracts/envelope';
import { MAX_PAGE_SIZE, paginatedSchema } from '@pa/contracts/list-query';
import { SORT_KEYS } from '@pa/power7-engine/session-store';

const num = z.number();

export const sessionParamsSchema = z.object({
  budget_type: z.enum(['fixed', 'range']),
  budget: num.nullable(),
  budget_min: num.nullable(),
  budget_max: num.nullable(),
  payouts: z.object({ 3: num, 4: num, 5: num, 6: num, 7: num }),
  pool_size: z.number().int(),
});

export const sessionSchema = z.object({
  _id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  phase: z.string(),
  progress: num,
  params: sessionParamsSchema,
  originalName: z.string().nullable(),
  fileBytes: num,
  counts: z.object({
    rowsRead: num.optional(),
    accepted: num.optional(),
    rejected: num.optional(),
    draws: num.optional(),
    drawsEvaluated: num.optional(),
    drawsQualified: num.optional(),
  }),
  timings: z.object({
    uploadMs: num.optional(),
    readMs: num.optional(),
    queuedMs: num.optional(),
    buildMs: num.optional(),
    scanMs: num.optional(),
    analysisMs: num.optional(),
    saveMs: num.optional(),
    totalMs: num.optional(),
    workers: num.optional(),
  }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string(),
});

export const rejectedRowSchema = z.object({ line: num, reason: z.string(), raw: z.string() });

export const statusSchema = sessionSchema.extend({
  rejectedSample: z.array(rejectedRowSchema),
  rejectedReport: z.string().nullable(),
});

const winnerCounts = z.object({ 3: num, 4: num, 5: num, 6: num, 7: num });

export const drawRowSchema = z.object({
  combo: z.string(),
  numbers: z.array(num),
  winners: winnerCounts,
  totalPayout: num,
});

export const statsSchema = z.object({
  draws: num,
  min: num,
  mean: num,
  max: num,
  worstDraw: drawRowSchema,
  histogram: z.object({ edges: z.array(num), counts: z.array(num) }),
});

// Strict objects: an unknown key (a typo, `winners: { 9: … }`) is a 400 naming it, never a filter
// silently ignored (which would answer every draw).
const range = z
  .strictObject({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
    message: 'min must not be greater than max',
    path: ['max'],
  });

const poolNumber = z.number().int().min(1).max(49);

/** The filter request of PRODUCT.md §5 step 2. */
export const filterBodySchema = z.strictObject({
  session: z.string().min(1).max(100).optional(),
  filters: z
    .strictObject({
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
    })
    .optional(),
  /** `field:order`, e.g. `totalPayout:desc` (the list protocol's wire form). */
  sort: z
    .string()
    .regex(
      new RegExp(`^(${SORT_KEYS.join('|')}):(asc|desc)$`),
      `sort must be field:order with field one of ${SORT_KEYS.join(', ')}`,
    )
    .optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});

export const filterAnswerSchema = paginatedSchema(drawRowSchema).extend({
  qualified: num,
  stats: statsSchema,
});

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

export const winnersAnswerSchema = paginatedSchema(winnerRowSchema).extend({
  combo: z.string(),
  matchType: num,
  session: z.string(),
});

export const comboParam = z.string().min(1).max(40);
/** Exactly `3`..`7` (not `03`, `3.0` or ` 3`): one spelling per resource. */
export const matchTypeParam = z
  .enum(['3', '4', '5', '6', '7'], { message: 'The match type must be 3, 4, 5, 6 or 7.' })
  .transform(Number);

export const env = envelopeSchema;
