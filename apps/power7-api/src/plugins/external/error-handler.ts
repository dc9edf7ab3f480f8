import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EngineError } from '@pa/power7-engine/session-store';
import { ErrorCode } from '@pa/contracts/error-codes';
import { errorHandler } from '@pa/server-kit/error-handler';
import { AppError, notFound } from '@pa/server-kit/errors';

/** Maps an engine failure to the answer a client gets; any other error passes as it is. */
export function engineErrorToApp(error: unknown): unknown {
  if (!(error instanceof EngineError)) return error;
  switch (error.code) {
    case 'INVALID_COMBO':
      return new AppError(ErrorCode.VALIDATION_ERROR, error.message, [
        { field: 'combo', message: error.message, code: ErrorCode.VALIDATION_ERROR },
      ]);
    case 'SESSION_NOT_FOUND':
      return notFound('The session');
    case 'SESSION_NOT_READY':
      return new AppError(ErrorCode.CONFLICT, 'The analysis of this session has not finished yet.');
    case 'NO_CUSTOMER_IDS':
    case 'BOOK_CLOSED':
      return new AppError(ErrorCode.CONFLICT, error.message);
    case 'BOOK_NOT_FOUND':
      return notFound('The book');
    default:
      return new AppError(
        ErrorCode.VALIDATION_ERROR,
        error.message,
        error.field
          ? [{ field: error.field, message: error.message, code: ErrorCode.VALIDATION_ERROR }]
          : undefined,
      );
  }
}

/** The shared envelope error handler; an engine failure anywhere in a route is mapped here, once. */
export const power7ErrorHandler = fp(
  async function power7ErrorHandler(app: FastifyInstance) {
    await app.register(errorHandler, { mapError: engineErrorToApp });
  },
  { name: 'power7-error-handler' },
);
