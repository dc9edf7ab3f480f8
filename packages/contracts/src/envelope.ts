import { z } from 'zod';
import './plain-messages';
import { ErrorCode, statusOfCode, type ErrorCode as ErrorCodeType } from './error-codes';

/** One problem inside an envelope; `field` names the input at fault for validation errors. */
export const apiErrorItemSchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
});
export type ApiErrorItem = z.infer<typeof apiErrorItemSchema>;

/**
 * The response envelope of docs/product/services.md §2, used by every JSON answer of both APIs, errors included.
 * `status` repeats the HTTP status; `code` is a stable word from `ErrorCode`.
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.boolean(),
    message: z.string(),
    code: z.string(),
    status: z.number().int(),
    data,
    errors: z.array(apiErrorItemSchema),
  });
}

export const errorEnvelopeSchema = envelopeSchema(z.null());

export interface Envelope<T> {
  success: boolean;
  message: string;
  code: string;
  status: number;
  data: T;
  errors: ApiErrorItem[];
}

/** A successful envelope. */
export function ok<T>(data: T, message = 'OK', code: ErrorCodeType = ErrorCode.OK): Envelope<T> {
  return { success: true, message, code, status: statusOfCode[code], data, errors: [] };
}

/** A failed envelope; `errors` defaults to one item repeating the message and code. */
export function fail(
  code: ErrorCodeType,
  message: string,
  errors?: ApiErrorItem[],
  status: number = statusOfCode[code],
): Envelope<null> {
  return {
    success: false,
    message,
    code,
    status,
    data: null,
    errors: errors ?? [{ message, code }],
  };
}

/** True when a parsed JSON value has the shape of an envelope (used by clients to tell foreign answers apart). */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return errorEnvelopeSchema.extend({ data: z.unknown() }).safeParse(value).success;
}
