import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { paginate, paginatedSchema } from '@pa/contracts/list-query';
import {
  clearAllAnswerSchema,
  sessionEditSchema,
  sessionSchema,
  statusSchema,
} from '@pa/contracts/power7';
import { csvAnswer, errorAnswers } from '@pa/server-kit/openapi';
import { auditEventSchema } from '../../../modules/audit/audit-log';
import { requirePermission } from '../../../plugins/external/auth';
import {
  bearer,
  owner,
  pageQuery,
  sessionErrors,
  sessionParams,
  sessionQuery,
  sendCsv,
} from './common';

/** The caller's sessions: progress of one, the list, the rejected-rows report, clearing them all. */
export async function sessionRoutes(app: FastifyInstance) {
  sessionReadRoutes(app);
  sessionChangeRoutes(app);
}

/** Progress of a session, the list, and the rejected-rows report. */
function sessionReadRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;
  const { audit } = app.power7;

  r.get(
    '/api/power7/processing-status/',
    {
      schema: {
        tags: ['power7'],
        summary: "Progress, counts and errors of a session (the caller's latest by default)",
        security: bearer,
        querystring: sessionQuery,
        response: { 200: envelopeSchema(statusSchema), 404: sessionErrors[404] },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.query.session);
      return ok({
        ...queries.view(row),
        rejectedSample: await queries.rejectedSample(row, 20),
        rejectedReport:
          row.status === 'done' || row.counts.rejected !== undefined
            ? `/api/power7/sessions/${row.id}/rejected.csv`
            : null,
      });
    },
  );

  r.get(
    '/api/power7/sessions/',
    {
      schema: {
        tags: ['power7'],
        summary: "The caller's sessions, newest first",
        security: bearer,
        querystring: z.object(pageQuery),
        response: { 200: envelopeSchema(paginatedSchema(sessionSchema)) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { page, pageSize } = request.query;
      const { items, total } = await queries.list(owner(caller), page, pageSize);
      return ok(paginate(items, total, page, pageSize));
    },
  );

  r.get(
    '/api/power7/sessions/:id/rejected.csv',
    {
      schema: {
        tags: ['power7'],
        summary: 'The full rejected-rows report of a session (CSV: line, reason, raw)',
        security: bearer,
        params: sessionParams,
        response: {
          200: csvAnswer('Every rejected row: `line,reason,raw` (an attachment)'),
          ...sessionErrors,
          ...errorAnswers({ 409: 'The file of this session has not been read yet' }),
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      const openReport = await queries.rejectedCsv(row);
      await audit.record(request, caller, 'power7.download', row.id, { file: 'rejected.csv' });
      return sendCsv(reply, `power7-${row.id}-rejected-rows.csv`, openReport());
    },
  );
}

/** Naming a session, deleting one, and clearing them all. */
function sessionChangeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;
  const { audit } = app.power7;

  r.patch(
    '/api/power7/sessions/:id/',
    {
      schema: {
        tags: ['power7'],
        summary: 'Names a session and notes on it (`name`, `note`; empty text clears one)',
        security: bearer,
        params: sessionParams,
        body: sessionEditSchema,
        response: { 200: envelopeSchema(sessionSchema), 404: sessionErrors[404] },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const row = await queries.find(owner(caller), request.params.id);
      const edited = await app.power7.sessions.edit(row, request.body);
      // what changed, not the text itself (a note may hold anything the analyst typed)
      await audit.record(request, caller, 'power7.session.edit', row.id, {
        fields: Object.keys(request.body),
      });
      return ok(queries.view(edited), 'The session was saved.');
    },
  );

  r.delete(
    '/api/power7/sessions/:id/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Deletes one session with its files and results (its running job is cancelled first)',
        security: bearer,
        params: sessionParams,
        response: { 200: envelopeSchema(clearAllAnswerSchema), 404: sessionErrors[404] },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.clear);
      const row = await queries.find(owner(caller), request.params.id);
      await app.power7.sessions.remove([row.id]);
      await audit.record(request, caller, 'power7.session.delete', row.id, {
        originalName: row.originalName,
      });
      return ok({ deleted: 1 }, 'The session was deleted.');
    },
  );

  r.post(
    '/api/sessions/clear-all/',
    {
      schema: {
        tags: ['power7'],
        summary:
          "Deletes the caller's sessions, their files and results (running jobs are cancelled)",
        security: bearer,
        response: { 200: envelopeSchema(clearAllAnswerSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.clear);
      const sessionIds = await app.power7.sessions.clearAll(owner(caller));
      const deleted = sessionIds.length;
      await audit.record(request, caller, 'power7.sessions.clear', null, { deleted, sessionIds });
      return ok({ deleted }, `${deleted} session(s) deleted.`);
    },
  );
}

/** `GET /api/power7/audit-events/`: the company's Power 7 audit trail (`audit.read`), newest first. */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/power7/audit-events/',
    {
      schema: {
        tags: ['power7'],
        summary: "Who uploaded, downloaded or cleared which session (the caller's company)",
        security: bearer,
        querystring: z.object(pageQuery),
        response: { 200: envelopeSchema(paginatedSchema(auditEventSchema)) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'audit.read');
      const { page, pageSize } = request.query;
      const { items, total } = await app.power7.audit.list(caller.companyId, page, pageSize);
      return ok(paginate(items, total, page, pageSize));
    },
  );
}
