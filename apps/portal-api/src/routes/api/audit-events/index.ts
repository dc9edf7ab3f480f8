import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AUDIT_SORT_FIELDS, auditEventSchema, auditFiltersSchema } from '@pa/contracts/audit';
import { ok as envelope } from '@pa/contracts/envelope';
import { listQuerySchema, paginatedSchema } from '@pa/contracts/list-query';
import { listAuditEvents } from '../../../modules/audit/list-events';
import { authOf } from '../../../plugins/app/auth';
import { crudErrors, ok } from '../admin-schemas';

const listQuery = listQuerySchema(AUDIT_SORT_FIELDS).extend({
  filters: auditFiltersSchema.optional(),
});

/** `GET /api/audit-events`: the company's audit trail, behind `audit.read`. */
export async function registerAuditRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/audit-events',
    {
      onRequest: app.requirePermission('audit.read'),
      schema: {
        tags: ['audit'],
        security: [{ bearerAuth: [] }],
        summary:
          'List the company’s audit trail (filters: action, entityType, entityId, actorId, from, to)',
        querystring: listQuery,
        response: { 200: ok(paginatedSchema(auditEventSchema)), ...crudErrors },
      },
    },
    async (request) =>
      envelope(await listAuditEvents(app.db, authOf(request).companyId, request.query)),
  );
}
