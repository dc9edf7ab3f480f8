import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import {
  capAnswerSchema,
  limitAnswerSchema,
  limitApplySchema,
  limitBodySchema,
  limitJobSchema,
  limitQuerySchema,
  sessionSchema,
} from '@pa/contracts/power7';
import { csvAnswer, errorAnswers } from '@pa/server-kit/openapi';
import { requirePermission } from '../../../plugins/external/auth';
import { startAcceptedSession } from '../../../modules/sessions/new-session';
import { bearer, owner, sessionErrors, sessionParams, withRetryAfter } from './common';
import { exportQuery, sendExport } from './export-answer';

/**
 * The liability limit (docs/product/services.md "Liability limit"): which tickets a limit refuses in
 * sales order, their rows, and the cap per combination that fits. About one analysis plus following
 * the draws above the limit; an open session keeps its last limits, so the CSV after an answer costs
 * nothing new.
 */
export async function liabilityRoutes(app: FastifyInstance) {
  limitRoutes(app);
  capRoute(app);
  applyLimitRoute(app);
}

/** What a limit accepts and refuses, and the refused tickets' rows. */
function limitRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries, limits } = app.power7.sessions;
  const { audit } = app.power7;
  const limitAnswers = {
    200: envelopeSchema(limitAnswerSchema),
    202: envelopeSchema(limitJobSchema).describe(
      'The run did not end within LIMIT_WAIT_MS: `resultUrl` answers it (202 with its progress while it runs)',
    ),
    ...sessionErrors,
  };

  /** 200 with a limit's answer, or 202 with where to ask for its run and how far it is. */
  const send = (reply: FastifyReply, asked: Awaited<ReturnType<typeof limits.ask>>) =>
    'answer' in asked
      ? reply.send(ok(asked.answer))
      : reply
          .status(202)
          .send(
            ok(
              asked.running,
              'The limit is being checked: resultUrl answers it once done, with its progress meanwhile.',
              ErrorCode.ACCEPTED,
            ),
          );

  r.post(
    '/api/power7/sessions/:id/limit/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Tickets a liability limit accepts and refuses in sales order, and the worst draw before and after (202 with `resultUrl` when the run takes longer than LIMIT_WAIT_MS)',
        security: bearer,
        params: sessionParams,
        body: limitBodySchema,
        response: limitAnswers,
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      return send(reply, await limits.ask(queries, row, request.body.limit, { retry: true }));
    },
  );

  r.get(
    '/api/power7/sessions/:id/limit/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'A limit run (the `resultUrl` of a 202): 202 with its progress while it runs, 200 with the answer of the POST once done, its failure in the envelope',
        security: bearer,
        params: sessionParams,
        querystring: limitQuerySchema,
        response: limitAnswers,
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      // a run this process has not heard of (asked through another process, or before a restart)
      // is started here as the POST would; a known one is answered as it stands
      const asked = await limits.ask(queries, row, request.query.limit, {
        retry: false,
        waitMs: 0,
      });
      return send(reply, asked);
    },
  );

  r.get(
    '/api/power7/sessions/:id/limit/refused.csv',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Every ticket a liability limit refuses, in file order, with the draw it would breach',
        security: bearer,
        params: sessionParams,
        querystring: z.object({
          limit: z.coerce
            .number({ error: 'The limit must be an amount.' })
            .min(0, 'The limit must be at least 0.'),
          ...exportQuery,
        }),
        response: {
          200: csvAnswer(
            'The original columns + `line` (the file line, header = 1), `breach_draw`, `would_be_total` (an attachment)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const row = await queries.find(owner(caller), request.params.id);
      const session = await queries.open(row);
      const { limit, format, params } = request.query;
      const chunks = await session.refusedCsv(limit);
      await audit.record(request, caller, 'power7.download', row.id, {
        file: `refused-over-${limit}.${format}`,
      });
      return sendExport(reply, {
        row,
        name: `power7-${row.id}-refused-over-${limit}`,
        what: `tickets refused by the liability limit ${limit}`,
        chunks,
        format,
        params,
        sheet: {
          sheet: 'Refused',
          numeric: new Set(['line', 'would_be_total']),
          money: new Set(['would_be_total']),
        },
      });
    },
  );
}

/** The cap per combination that fits a limit. */
function capRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;

  r.post(
    '/api/power7/sessions/:id/cap/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'The largest number of copies of each combination (the first in file order) that keeps every draw within a limit',
        security: bearer,
        params: sessionParams,
        body: limitBodySchema,
        response: { 200: envelopeSchema(capAnswerSchema), ...sessionErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      const session = await queries.open(row);
      return ok(await session.cap(request.body.limit));
    },
  );
}

/** A new session of the tickets a limit keeps. */
function applyLimitRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/power7/sessions/:id/limit/apply/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'A new session of the tickets a liability limit keeps (in sales order, or by the cap per combination): the book as sold',
        security: bearer,
        params: sessionParams,
        body: limitApplySchema,
        response: {
          202: envelopeSchema(sessionSchema),
          ...sessionErrors,
          ...errorAnswers({
            413: 'The storage quota is used up',
            429: 'The user already has JOBS_PER_USER analyses queued or running (see Retry-After)',
          }),
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { limit, mode } = request.body;
      const { id, row, source } = await startAcceptedSession(
        app.power7,
        owner(caller),
        request.params.id,
        limit,
        mode,
      ).catch(withRetryAfter(reply));
      await app.power7.audit.record(request, caller, 'power7.rerun', id, {
        sourceSessionId: source.id,
        limit,
        mode,
      });
      return reply
        .status(202)
        .send(
          ok(
            app.power7.sessions.queries.view(row),
            'The analysis of the accepted tickets has started.',
            ErrorCode.ACCEPTED,
          ),
        );
    },
  );
}
