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
