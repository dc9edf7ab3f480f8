import { z } from 'zod';
import { MAX_AMOUNT } from './power7-limits';

/**
 * Amounts in Power 7 requests: typed in a form field (text, read the same way in the browser and the
 * service) or sent as a JSON number. Shared by the upload form, insight and the liability limit.
 */

/** A non-negative decimal as typed: digits, optional `+`, optional fraction. */
const AMOUNT_TEXT = /^[+]?(\d+(\.\d*)?|\.\d+)$/;

export const hasAtMostTwoDecimals = (value: number) =>
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
export function amountText(what: string) {
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

/** An amount sent as a JSON number: ≥ 0, ≤ MAX_AMOUNT, at most two decimals. */
export const amountNumber = z
  .number()
  .min(0)
  .max(MAX_AMOUNT)
  .refine(hasAtMostTwoDecimals, 'An amount may have at most two decimals.');
