import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { filterAnswerSchema, filterBodySchema } from '@pa/contracts/power7';
import { requirePermission } from '../../../plugins/external/auth';
import { FilterAnswers } from '../../../sessions/filter-answers';
import { bearer, owner, sessionErrors } from './common';

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
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const body = request.body;
      const row = await queries.find(owner(caller), body.session);
      const session = await queries.open(row);
      return ok(filterAnswers.answer(row.id, session, body));
    },
  );
}
