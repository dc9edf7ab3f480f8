import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { comboParam, matchTypeParam, winnersAnswerSchema } from '@pa/contracts/power7';
import type { MatchType } from '@pa/power7-engine/session-store';
import { csvAnswer } from '@pa/server-kit/openapi';
import { requirePermission, type Caller } from '../../../plugins/external/auth';
import { bearer, owner, pageQuery, sendCsv, sessionErrors, sessionQuery } from './common';

/** Winning tickets of one draw: a page of them, or their CSV (one match type or all). */
export async function winnerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;

  r.get(
    '/api/winners/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'Winning tickets of one draw and match type (paginated)',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery.extend(pageQuery),
        response: { 200: envelopeSchema(winnersAnswerSchema), ...sessionErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo, matchType } = request.params;
      const { page, pageSize, session: id } = request.query;
      const row = await queries.find(owner(caller), id);
      const session = await queries.open(row);
      const answer = await session.winners(combo, matchType as MatchType, page, pageSize);
      return ok({ ...answer, session: row.id });
    },
  );

  /** The CSV stream, once its first chunk is read; the download is audited then. */
  const download = async (
    request: FastifyRequest,
    caller: Caller,
    id: string | undefined,
    combo: string,
    matchType: MatchType | 'all',
  ) => {
    const row = await queries.find(owner(caller), id);
    const session = await queries.open(row);
    // written on the winners threads, as bytes (the event loop only forwards them)
    const iterable = session.winnersCsvBytes(combo, matchType);
    // the first chunk is read here, so a bad combo is still a 400 and not a broken download
    const iterator = iterable[Symbol.asyncIterator]();
    const first = await iterator.next();
    try {
      await app.power7.audit.record(request, caller, 'power7.download', row.id, {
        combo,
        matchType,
      });
    } catch (error) {
      // not audited, not sent: the engine's file handle is closed here
      await iterator.return?.();
      throw error;
    }
    async function* rest() {
      try {
        if (first.done) return;
        yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        // a client that hangs up mid-download still closes the engine's file handle
        await iterator.return?.();
      }
    }
    return rest();
  };

  r.get(
    '/api/download/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of the winning tickets of one draw and match type',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery,
        response: {
          200: csvAnswer(
            'The original columns + `match_type`, `matched_numbers`, `payout` (an attachment `power7-<combo>-match<m>.csv`)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo, matchType } = request.params;
      const stream = await download(
        request,
        caller,
        request.query.session,
        combo,
        matchType as MatchType,
      );
      return sendCsv(reply, `power7-${combo}-match${matchType}.csv`, stream);
    },
  );

  r.get(
    '/api/download-all/:combo/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of every winning ticket of one draw (match types 3..7)',
        security: bearer,
        params: z.object({ combo: comboParam }),
        querystring: sessionQuery,
        response: {
          200: csvAnswer(
            'The winners of match types 3..7, as the one-type CSV (an attachment `power7-<combo>-all.csv`)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo } = request.params;
      const stream = await download(request, caller, request.query.session, combo, 'all');
      return sendCsv(reply, `power7-${combo}-all.csv`, stream);
    },
  );
}
