import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { insightAnswerSchema, insightBodySchema } from '@pa/contracts/power7';
import { requirePermission } from '../../../plugins/external/auth';
import { bearer, owner } from './common';

/**
 * `POST /api/insight/`: exact answers over every draw of a finished session — quantiles, jackpot
 * share, the worst draw, and per budget the draws covered, the chance of exceeding it and the expected
 * excess; per range the draws within; the limits for targets and the expected shortfall
 * (docs/product/services.md "Insight").
 */
export async function insightRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;

  r.post(
    '/api/insight/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Exact budget insight over every draw: quantiles, jackpot share, worst draw, coverage, exceedance, expected excess and mean overshoot per budget, draws within, below and above each range, limits for chances of exceeding and for expected excesses, expected shortfall',
        security: bearer,
        body: insightBodySchema,
        response: { 200: envelopeSchema(insightAnswerSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { session: id, ...questions } = request.body;
      const row = await queries.find(owner(caller), id);
      const session = await queries.open(row);
      return ok(await session.insight(questions));
    },
  );
}
