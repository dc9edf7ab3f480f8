import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { EXPOSURE_BY, exposureAnswerSchema, exposureBodySchema } from '@pa/contracts/power7';
import { csvAnswer, errorAnswers } from '@pa/server-kit/openapi';
import { requirePermission } from '../../../plugins/external/auth';
import { bearer, owner, sessionErrors, sessionParams } from './common';
import { exportQuery, sendExport } from './export-answer';

const exposureErrors = {
  ...sessionErrors,
  ...errorAnswers({
    409: 'The analysis has not finished, or (`by: customer`) the file has no customer id column',
  }),
};

/**
 * Where the tail comes from (docs/product/services.md "Exposure"): the draws whose total is above a
 * line, and the combinations or customers whose payouts make them up, largest first. About one
 * analysis per new line; the session keeps its last lines, so the CSV after a page costs nothing new.
 */
export async function exposureRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;
  const { audit } = app.power7;

  r.post(
    '/api/power7/sessions/:id/exposure/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'The draws above a line and the combinations or customers ranked by their payouts in them',
        security: bearer,
        params: sessionParams,
        body: exposureBodySchema,
        response: { 200: envelopeSchema(exposureAnswerSchema), ...exposureErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      const session = await queries.open(row);
      return ok(await session.exposure(request.body));
    },
  );

  r.get(
    '/api/power7/sessions/:id/exposure.csv',
    {
      schema: {
        tags: ['power7'],
        summary: 'The full exposure ranking over a line as CSV (or XLSX with `format=xlsx`)',
        security: bearer,
        params: sessionParams,
        querystring: z.object({
          over: z.coerce
            .number({ error: 'The line must be an amount.' })
            .min(0, 'The line must be at least 0.'),
          by: z.enum(EXPOSURE_BY, { error: 'Rank by "combination" or by "customer".' }),
          ...exportQuery,
        }),
        response: {
          200: csvAnswer(
            'By combination `combo,tickets,draws_won,tail_payout,share`; by customer `customer_id,name,tickets,tail_payout,share` (an attachment)',
          ),
          ...exposureErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const row = await queries.find(owner(caller), request.params.id);
      const session = await queries.open(row);
      const { over, by, format, params } = request.query;
      const chunks = await session.exposureCsv({ over, by });
      await audit.record(request, caller, 'power7.download', row.id, {
        file: `exposure-${by}.${format}`,
      });
      return sendExport(reply, {
        row,
        name: `power7-${row.id}-exposure-by-${by}-over-${over}`,
        what: `exposure by ${by} over ${over}`,
        chunks,
        format,
        params,
        sheet: {
          sheet: 'Exposure',
          numeric: new Set(['tickets', 'draws_won', 'tail_payout', 'share']),
          money: new Set(['tail_payout']),
        },
      });
    },
  );
}
