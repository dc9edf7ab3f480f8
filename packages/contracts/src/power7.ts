import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, paginatedSchema } from './list-query';
import { multiLineText, singleLineText } from './text';
import {
  DEFAULT_POOL,
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  MAX_AMOUNT,
  MAX_POOL,
  MIN_POOL,
  SORT_KEYS,
} from './power7-limits';

/**
 * The Power 7 service's requests and answers, shared by the service (validation, OpenAPI) and the
 * web app (forms, types). The game's limits (`power7-limits.ts`, re-exported here) are shared too,
 * so the engine, the service and the browser apply the same numbers.
 */

export {
  DEFAULT_POOL,
  type DrawSortKey,
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  MATCH_TYPES,
  type MatchTypeNumber,
  MAX_AMOUNT,
  MAX_POOL,
  MIN_POOL,
  QUANTILE_KEYS,
  SORT_KEYS,
  XLSX_MAX_ROWS,
} from './power7-limits';

const num = z.number();

export const sessionParamsSchema = z.object({
  budget_type: z.enum(['fixed', 'range']),
  budget: num.nullable(),
  budget_min: num.nullable(),
  budget_max: num.nullable(),
  payouts: z.object({ 3: num, 4: num, 5: num, 6: num, 7: num }),
  pool_size: z.number().int(),
  /** ISO 4217 code the amounts are in, when one was chosen (absent: none named). */
  currency: z.string().optional(),
});
export type SessionParams = z.infer<typeof sessionParamsSchema>;

export const SESSION_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const sessionSchema = z.object({
  _id: z.string(),
  status: z.enum(SESSION_STATUSES),
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
  /** When the session and its files are deleted (SESSION_TTL_HOURS after the upload). */
  expiresAt: z.string(),
  /** The session whose stored tickets this one re-ran with other parameters (null: an upload). */
  sourceSessionId: z.string().nullable().optional(),
  /** The analyst's own name and note for the session. */
  name: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  /** Rejected rows by kind of reason (`wrong field count`, `number out of range`, …). */
  rejectedReasons: z.record(z.string(), num).optional(),
});
export type Power7Session = z.infer<typeof sessionSchema>;

export const rejectedRowSchema = z.object({ line: num, reason: z.string(), raw: z.string() });
export type RejectedRowView = z.infer<typeof rejectedRowSchema>;

export const statusSchema = sessionSchema.extend({
  rejectedSample: z.array(rejectedRowSchema),
  rejectedReport: z.string().nullable(),
});
export type Power7Status = z.infer<typeof statusSchema>;

const winnerCounts = z.object({ 3: num, 4: num, 5: num, 6: num, 7: num });

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

export const clearAllAnswerSchema = z.object({ deleted: z.number().int() });

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

/* ------------------------------------------------------------------------------------------------
 * The upload form (multipart text fields), validated the same way in the browser and the service.
 * ---------------------------------------------------------------------------------------------- */

export const PAYOUT_FIELDS = ['payout_3', 'payout_4', 'payout_5', 'payout_6', 'payout_7'] as const;
export type PayoutField = (typeof PAYOUT_FIELDS)[number];

/** A non-negative decimal as typed: digits, optional `+`, optional fraction. */
const AMOUNT_TEXT = /^[+]?(\d+(\.\d*)?|\.\d+)$/;

const hasAtMostTwoDecimals = (value: number) =>
  Math.abs(Math.round(value * 100) - value * 100) <= 1e-6 * Math.max(1, value);

/**
 * The amount a person meant when they typed thousands separators ("10,000" → "10000"), or null.
 * Such text is refused rather than read: "10,000" is ten thousand in one convention and ten in
 * another, and an amount that sets a budget must not be guessed.
 */
export function withoutThousandsSeparators(text: string): string | null {
  const trimmed = text.trim();
  return /^\d{1,3}([,\s]\d{3})+(\.\d*)?$/.test(trimmed) ? trimmed.replace(/[,\s]/g, '') : null;
}

/** Why typed text is not an amount: the thousands separator case is named with the fix. */
export function amountTextProblem(what: string, text: string): string {
  const plain = withoutThousandsSeparators(text);
  return plain
    ? `Use digits only, no thousands separators: ${plain}`
    : `${what} must be a number ≥ 0.`;
}

/** An amount typed in a form field: required, ≥ 0, ≤ MAX_AMOUNT, at most two decimals. */
function amountText(what: string) {
  const required = `${what} is required.`;
  const notANumber = `${what} must be a number ≥ 0.`;
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .refine((text) => AMOUNT_TEXT.test(text), {
      error: (issue) => amountTextProblem(what, String(issue.input)),
      abort: true,
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .refine(Number.isFinite, { error: notANumber, abort: true })
        .max(MAX_AMOUNT, { error: `${what} must not exceed ${MAX_AMOUNT}.`, abort: true })
        .refine(hasAtMostTwoDecimals, `${what} may have at most two decimals.`),
    );
}

const POOL_MESSAGE = `The pool size must be a whole number from ${MIN_POOL} to ${MAX_POOL}.`;

/** Optional pool size: empty means the default. */
const poolText = z
  .string()
  .trim()
  .optional()
  .transform((text, ctx) => {
    if (!text) return DEFAULT_POOL;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < MIN_POOL || value > MAX_POOL) {
      ctx.addIssue({ code: 'custom', message: POOL_MESSAGE });
      return z.NEVER;
    }
    return value;
  });

/** The ISO 4217 codes this runtime knows (every current browser and Node has `supportedValuesOf`). */
export const CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');

/** Optional currency: empty means none; else an ISO 4217 code, any case, stored in capitals. */
const currencyText = z
  .string()
  .trim()
  .optional()
  .transform((text, ctx) => {
    if (!text) return undefined;
    const code = text.toUpperCase();
    if (!CURRENCIES.includes(code)) {
      ctx.addIssue({
        code: 'custom',
        message: 'The currency must be an ISO 4217 code such as EUR, USD or GBP.',
      });
      return z.NEVER;
    }
    return code;
  });

const payoutFields = {
  payout_3: amountText('The payout for 3 matches'),
  payout_4: amountText('The payout for 4 matches'),
  payout_5: amountText('The payout for 5 matches'),
  payout_6: amountText('The payout for 6 matches'),
  payout_7: amountText('The payout for 7 matches'),
};

const BUDGET_TYPE_MESSAGE = 'The budget type must be "fixed" or "range".';

/**
 * The upload form's fields as text (what a multipart form and an HTML form both carry): budget by
 * type, min ≤ max, payouts ≥ 0 with at least one > 0, pool 8..49 (default 35). Every problem is
 * reported under its field. The output is the session's parameters.
 */
export const uploadFormSchema = z
  .object({
    budget_type: z.enum(['fixed', 'range'], { error: BUDGET_TYPE_MESSAGE }),
    budget: z.string().optional(),
    budget_min: z.string().optional(),
    budget_max: z.string().optional(),
    payout_3: z.string().optional(),
    payout_4: z.string().optional(),
    payout_5: z.string().optional(),
    payout_6: z.string().optional(),
    payout_7: z.string().optional(),
    pool_size: z.string().optional(),
    currency: z.string().optional(),
  })
  .transform((form, ctx): SessionParams => {
    const read = <T>(field: string, schema: z.ZodType<T>, value: unknown): T | null => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: [field] });
      }
      return null;
    };
    let budget: number | null = null;
    let budgetMin: number | null = null;
    let budgetMax: number | null = null;
    if (form.budget_type === 'fixed') {
      budget = read('budget', amountText('The budget'), form.budget);
    } else {
      budgetMin = read('budget_min', amountText('The minimum budget'), form.budget_min);
      budgetMax = read('budget_max', amountText('The maximum budget'), form.budget_max);
      if (budgetMin !== null && budgetMax !== null && budgetMin > budgetMax) {
        ctx.addIssue({
          code: 'custom',
          message: 'The maximum budget must not be less than the minimum budget.',
          path: ['budget_max'],
        });
      }
    }
    const payouts = PAYOUT_FIELDS.map((field) => read(field, payoutFields[field], form[field]));
    if (payouts.every((p) => p === 0)) {
      ctx.addIssue({
        code: 'custom',
        message: 'At least one payout must be greater than 0.',
        path: ['payout_3'],
      });
    }
    const pool = read('pool_size', poolText, form.pool_size);
    const currency = read('currency', currencyText, form.currency);
    const [p3, p4, p5, p6, p7] = payouts.map((p) => p ?? 0) as [
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      budget_type: form.budget_type,
      budget,
      budget_min: budgetMin,
      budget_max: budgetMax,
      payouts: { 3: p3, 4: p4, 5: p5, 6: p6, 7: p7 },
      pool_size: pool ?? DEFAULT_POOL,
      ...(currency ? { currency } : {}),
    };
  });
export type UploadFormInput = z.input<typeof uploadFormSchema>;

/** The upload form filled from a session's parameters (to offer them again). */
export function uploadFormFromParams(params: SessionParams): Required<UploadFormInput> {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    budget_type: params.budget_type,
    budget: text(params.budget),
    budget_min: text(params.budget_min),
    budget_max: text(params.budget_max),
    payout_3: text(params.payouts[3]),
    payout_4: text(params.payouts[4]),
    payout_5: text(params.payouts[5]),
    payout_6: text(params.payouts[6]),
    payout_7: text(params.payouts[7]),
    pool_size: String(params.pool_size),
    currency: params.currency ?? '',
  };
}

/**
 * `POST /api/power7/sessions/:id/rerun/`: the upload form's fields without the file, as a JSON
 * object whose values are text (as the form sends them) or numbers; the same rules as the upload.
 */
const rerunValue = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .optional();
export const rerunBodySchema = z
  .strictObject({
    budget_type: z.string(),
    budget: rerunValue,
    budget_min: rerunValue,
    budget_max: rerunValue,
    payout_3: rerunValue,
    payout_4: rerunValue,
    payout_5: rerunValue,
    payout_6: rerunValue,
    payout_7: rerunValue,
    pool_size: rerunValue,
    currency: z.string().optional(),
  })
  .pipe(uploadFormSchema);
export type RerunBody = z.input<typeof rerunBodySchema>;

/** Longest session name and note (characters). */
export const SESSION_NAME_MAX = 120;
export const SESSION_NOTE_MAX = 2000;

/** `PATCH /api/power7/sessions/:id/`: the session's name and note (empty text clears one). */
export const sessionEditSchema = z
  .strictObject({
    name: singleLineText().trim().max(SESSION_NAME_MAX).optional(),
    note: multiLineText().trim().max(SESSION_NOTE_MAX).optional(),
  })
  .refine((edit) => edit.name !== undefined || edit.note !== undefined, {
    message: 'Send a name, a note or both.',
  });
export type SessionEdit = z.input<typeof sessionEditSchema>;

/** An amount sent as a JSON number: ≥ 0, ≤ MAX_AMOUNT, at most two decimals. */
const amountNumber = z
  .number()
  .min(0)
  .max(MAX_AMOUNT)
  .refine(hasAtMostTwoDecimals, 'An amount may have at most two decimals.');

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

/** A liability limit: the most a draw may pay in total (an amount, ≤ 2 decimals). */
export const liabilityLimit = z
  .number({ error: 'The limit must be an amount.' })
  .min(0, 'The limit must be at least 0.')
  .max(MAX_AMOUNT, `The limit must be at most ${MAX_AMOUNT.toLocaleString('en')}.`)
  .refine(hasAtMostTwoDecimals, 'The limit may have at most two decimals.');

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
