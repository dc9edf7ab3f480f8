import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { fail } from '@pa/contracts/envelope';
import { codeOfStatus, ErrorCode } from '@pa/contracts/error-codes';
import { AppError, isDatabaseUnavailable } from './errors';

function fieldOf(instancePath: string, context: string | undefined): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path || context || 'request';
}

/** The errors of a failed schema validation: one per field, one per unknown key of a strict object. */
function validationErrors(error: FastifyError & { validation: FastifySchemaValidationError[] }) {
  return error.validation.flatMap((issue) => {
    const keys = (issue.params as { keys?: unknown }).keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      // Named the way the request wrote them, bracket keys as dotted paths (`filters.status.$ne`).
      const parent = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return keys.map((key) => ({
        field: [parent, String(key).replace(/\[([^\]]*)\]/g, '.$1')].filter(Boolean).join('.'),
        message: `unknown ${error.validationContext === 'querystring' ? 'parameter' : 'key'} "${String(key)}"`,
        code: ErrorCode.VALIDATION_ERROR,
      }));
    }
    return [
      {
        field: fieldOf(issue.instancePath, error.validationContext),
        message: issue.message ?? 'is invalid',
        code: ErrorCode.VALIDATION_ERROR,
      },
    ];
  });
}

/** Codes of a connection that went away, whichever end closed it. */
const CONNECTION_LOST = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * Whether the failure is the client going away (an upload cut off, a closed tab): its own socket
 * is closed and the error is a lost connection. Not the database's: its codes are the same words.
 */
function isClientDisconnect(error: FastifyError, request: FastifyRequest): boolean {
  const code = (error as { code?: unknown }).code;
  const lost =
    (typeof code === 'string' && CONNECTION_LOST.has(code)) || error.message === 'aborted';
  const socket = request.raw.socket as { destroyed?: boolean } | null;
  return lost && (request.raw.destroyed || !socket || socket.destroyed === true);
}

/**
 * One error handler for the whole service: every failure — our own AppError, schema validation,
 * Fastify's own errors (body too large, bad JSON, rate limit), unknown routes and thrown bugs —
 * answers in the envelope. A 5xx never carries internals; they go to the log only.
 */
export interface ErrorHandlerOptions {
  /** Answers unknown routes that are not API calls (the web app's history fallback); return true when handled. */
  fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean;
  /** Turns a service's own kind of failure (e.g. the engine's) into an AppError; others pass as they are. */
  mapError?: (error: unknown) => unknown;
}

export const errorHandler = fp<ErrorHandlerOptions>(
  async function errorHandler(app: FastifyInstance, options: ErrorHandlerOptions) {
    app.setErrorHandler((thrown: FastifyError, request, reply) => {
      const error = (options.mapError?.(thrown) ?? thrown) as FastifyError;
      if (error instanceof AppError) {
        return reply
          .status(error.status)
          .send(fail(error.code, error.message, error.errors, error.status));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors = validationErrors(error);
        const first = errors[0];
        const message = first ? `${first.field}: ${first.message}` : 'The request is invalid.';
        return reply.status(400).send(fail(ErrorCode.VALIDATION_ERROR, message, errors));
      }
      if (isClientDisconnect(error, request)) {
        // Nobody is left to answer, and nothing is wrong on our side: a note, not a warning.
        request.log.info({ code: (error as { code?: unknown }).code }, 'client disconnected');
        return reply
          .status(400)
          .send(fail(ErrorCode.BAD_REQUEST, 'The connection was closed before the request ended.'));
      }
      if (isDatabaseUnavailable(error)) {
        // a database restart or outage: the request may simply be tried again in a moment
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .status(503)
          .send(
            fail(
              ErrorCode.SERVICE_UNAVAILABLE,
              'The database cannot be reached just now. Please try again in a moment.',
              undefined,
              503,
            ),
          );
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply
          .status(status)
          .send(
            fail(
              ErrorCode.INTERNAL_ERROR,
              'Something went wrong on our side. Please try again.',
              undefined,
              status,
            ),
          );
      }
      if (status === 429) {
        return reply
          .status(429)
          .send(fail(ErrorCode.RATE_LIMITED, error.message || 'Too many requests.'));
      }
      const code =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? ErrorCode.PAYLOAD_TOO_LARGE
          : codeOfStatus(status);
      return reply.status(status).send(fail(code, error.message, undefined, status));
    });

    app.setNotFoundHandler((request, reply) => {
      if (options.fallback?.(request, reply)) return;
      reply
        .status(404)
        .send(
          fail(ErrorCode.NOT_FOUND, `No route for ${request.method} ${request.url.split('?')[0]}.`),
        );
    });
  },
  { name: 'envelope-error-handler' },
);
