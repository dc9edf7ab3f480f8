import { z } from 'zod';
import { amountText } from './power7-amounts';
import { DEFAULT_POOL, MAX_POOL, MIN_POOL } from './power7-limits';
import type { SessionParams } from './power7-sessions';

/* ------------------------------------------------------------------------------------------------
 * The upload form (multipart text fields), validated the same way in the browser and the service.
 * ---------------------------------------------------------------------------------------------- */

export const PAYOUT_FIELDS = ['payout_3', 'payout_4', 'payout_5', 'payout_6', 'payout_7'] as const;
export type PayoutField = (typeof PAYOUT_FIELDS)[number];

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
