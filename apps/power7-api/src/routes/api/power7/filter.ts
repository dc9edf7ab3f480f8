import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { filterAnswerSchema, filterBodySchema } from '@pa/contracts/power7';
import { requirePermission } from '../../../plugins/external/auth';
import { csvAnswer } from '@pa/server-kit/openapi';
import { FilterAnswers, toFilterQuery } from '../../../modules/sessions/filter-answers';
import { z } from 'zod';
import { ensureFitsOneSheet } from '../../../modules/exports/exports';
import { bearer, owner, sessionErrors } from './common';
import { exportQuery, sendExport } from './export-answer';

/** Aborts when the client goes before its answer is sent (the filter's threads then stop). */
function clientGone(response: ServerResponse): AbortSignal {
  const gone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** `POST /api/filter/`: a page of qualifying draws with the all-draws statistics. */
export async function filterRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;
  const filterAnswers = new FilterAnswers();

  r.post(
    '/api/filter/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Qualifying draws (filters, sort, page) with the payout histogram, min / mean / max and the worst-case draw',
        security: bearer,
        body: filterBodySchema,
        response: { 200: envelopeSchema(filterAnswerSchema), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const body = request.body;
      const row = await queries.find(owner(caller), body.session);
      const session = await queries.open(row);
      return ok(await filterAnswers.answer(row.id, session, body, clientGone(reply.raw)));
    },
  );

  r.post(
    '/api/filter/export/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'CSV of every qualifying draw the filters match (combo, winners 3..7, total payout); page, pageSize and sort ignored',
        description:
          "The body is the filter request's. The draws come in draw order, streamed in batches (memory stays constant whatever their number); `X-Total-Rows` says how many rows follow the header.",
        security: bearer,
        body: filterBodySchema,
        querystring: z.object(exportQuery),
        response: {
          200: csvAnswer(
            '`combo,winners_3,winners_4,winners_5,winners_6,winners_7,total_payout` (an attachment `power7-<session>-draws.csv`, or `.xlsx` with `format=xlsx`)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const body = request.body;
      const row = await queries.find(owner(caller), body.session);
      const session = await queries.open(row);
      const query = toFilterQuery({ ...body, page: 1, pageSize: 1 });
      // checks the filters (a bad one is a 400, not a broken download) and counts the rows
      const total = (
        await filterAnswers.answer(
          row.id,
          session,
          { ...body, page: 1, pageSize: 1 },
          clientGone(reply.raw),
        )
      ).total;
      const { format, params } = request.query;
      if (format === 'xlsx') ensureFitsOneSheet(total);
      const chunks = session.drawsCsv(query);
      await app.power7.audit.record(request, caller, 'power7.export', row.id, {
        rows: total,
        filters: body.filters ?? {},
      });
      reply.header('x-total-rows', String(total));
      return sendExport(reply, {
        row,
        name: `power7-${row.id}-draws`,
        what: `qualifying draws${Object.keys(body.filters ?? {}).length > 0 ? ' (filtered)' : ''}`,
        chunks,
        format,
        params,
        sheet: {
          sheet: 'Draws',
          numeric: new Set([
            'winners_3',
            'winners_4',
            'winners_5',
            'winners_6',
            'winners_7',
            'total_payout',
          ]),
          money: new Set(['total_payout']),
        },
      });
    },
  );
}
