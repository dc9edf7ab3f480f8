import type { Envelope } from '@pa/contracts/envelope';
import { isEnvelope } from './envelope';

/** Statuses of a failed call: the HTTP status, or one of the generic request errors of docs/product/web.md §8. */
export type ApiErrorStatus = number | 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR';

/** Every failed call, whatever went wrong, reaches components in this one shape. */
export interface ApiError {
  status: ApiErrorStatus;
  data: Envelope<null>;
}

/**
 * Seed §8: a response without the standard envelope becomes this fallback (status given or 500).
 */
export function fallbackEnvelope(status?: number): Envelope<null> {
  return {
    success: false,
    message: 'NETWORK_ERROR',
    code: 'ERROR',
    status: status ?? 500,
    data: null,
    errors: [{ message: 'Unexpected error', code: 'ERROR_CODE' }],
  };
}

/** The envelope of a failed response, or the fallback when the body is not one. */
export function toErrorEnvelope(body: unknown, status?: number): Envelope<null> {
  if (isEnvelope(body)) {
    const env = body as Envelope<unknown>;
    return { ...env, data: null, errors: env.errors ?? [] };
  }
  return fallbackEnvelope(status);
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'data' in value &&
    isEnvelope((value as { data: unknown }).data)
  );
}

/** A sentence for a person: the server's message, or what the generic error means. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.') {
  if (!isApiError(error)) return fallback;
  switch (error.status) {
    case 'FETCH_ERROR':
      return 'Cannot reach the server. Check your connection and try again.';
    case 'TIMEOUT_ERROR':
      return 'The server took too long to answer. Please try again.';
    case 'PARSING_ERROR':
      return 'The server sent an answer that could not be read.';
  }
  const { message } = error.data;
  return message && message !== 'NETWORK_ERROR' ? message : fallback;
}

/** Field-level messages of a validation error, keyed by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error)) return {};
  const out: Record<string, string> = {};
  for (const item of error.data.errors) if (item.field) out[item.field] ??= item.message;
  return out;
}
