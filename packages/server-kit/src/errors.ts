import { ErrorCode, statusOfCode } from '@pa/contracts/error-codes';
import type { ApiErrorItem } from '@pa/contracts/envelope';

/**
 * A failure a route means to answer with: its code, a message a person understands and, for
 * validation problems, the fields at fault. The error handler turns it into the envelope.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: ApiErrorItem[],
    status?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status ?? statusOfCode[code];
  }
}

export const notFound = (what: string) =>
  new AppError(ErrorCode.NOT_FOUND, `${what} was not found.`);
export const conflict = (message: string) => new AppError(ErrorCode.CONFLICT, message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new AppError(ErrorCode.FORBIDDEN, message);
export const unauthorized = (message = 'Authentication is required.') =>
  new AppError(ErrorCode.UNAUTHORIZED, message);

/** A validation failure of one named field. */
export const invalidField = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION_ERROR, message, [
    { field, message, code: ErrorCode.VALIDATION_ERROR },
  ]);

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now
  '57P01',
  '57P02',
  '57P03',
]);
const UNAVAILABLE_MESSAGE =
  /connection terminated|terminating connection|timeout exceeded when trying to connect|connection error/i;

/**
 * Whether an error (or one it was caused by: Drizzle wraps the driver's) says the database server
 * could not be reached or went away, as opposed to a query it refused.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08')))
      return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    e = cause;
  }
  return false;
}

/**
 * The unique index (or constraint) a statement broke, from PostgreSQL's `23505` on the error or one
 * it was caused by (Drizzle wraps the driver's); null for any other error. A check-then-insert can
 * lose a race to another request: the index decides, and the service answers 409, not 500.
 */
export function uniqueViolationOf(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { code, constraint, cause } = e as {
      code?: unknown;
      constraint?: unknown;
      cause?: unknown;
    };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
    e = cause;
  }
  return null;
}
