import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CSV_BOM } from '@pa/contracts/csv';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@pa/contracts/list-query';
import { errorAnswers } from '@pa/server-kit/openapi';
import type { Caller } from '../../../modules/caller';
import { TooManyJobsError } from '../../../modules/sessions/quota';

/** Shared parts of the Power 7 routes' schemas and answers. */
export const owner = (caller: Caller) => ({ userId: caller.userId, companyId: caller.companyId });
const sessionId = z
  .string()
  .min(1)
  .max(100)
  .meta({ examples: ['019a6b2e-7c1d-7f3a-9b4e-2d8c5a1f0e63'] });
export const sessionQuery = z.object({ session: sessionId.optional() });
export const sessionParams = z.object({ id: sessionId });
export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};
export const bearer = [{ bearerAuth: [] }];

/** What a route that finds a session (by id, or the caller's latest) can answer besides the generic errors. */
export const sessionErrors = errorAnswers({
  404: 'No such session of the caller (or, without `session`, none yet)',
  409: 'The analysis has not finished, or failed',
});

/** Gives a 429 of the per-user job limit its Retry-After header (the error handler writes the envelope). */
export function noteRetryAfter(reply: FastifyReply, error: unknown): void {
  if (error instanceof TooManyJobsError) void reply.header('retry-after', String(error.retryAfter));
}

/** `noteRetryAfter`, then rethrows: for a promise's `.catch`. */
export const withRetryAfter =
  (reply: FastifyReply) =>
  (error: unknown): never => {
    noteRetryAfter(reply, error);
    throw error;
  };

/** A download file name: `power7-<combo>-match<M>.csv` or `power7-<combo>-all.csv`. */
export const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^0-9A-Za-z._-]/g, '_')}"`;

/**
 * Sends a CSV download: an attachment named `name`, UTF-8 with a byte order mark first (so a
 * spreadsheet reads it as UTF-8), the chunks streamed as they come.
 */
export function sendCsv(
  reply: FastifyReply,
  name: string,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string>,
) {
  async function* withBom() {
    yield CSV_BOM;
    yield* chunks;
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', attachment(name))
    .send(Readable.from(withBom()));
}
