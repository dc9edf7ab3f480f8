import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { notFound } from '@pa/server-kit/errors';
import { signIns, users } from '../../../db/schema';
import { auditFrom, recordAudit } from '../../../modules/audit/record';
import { listSignIns, revokeAllSignIns, revokeSignIn } from '../../../modules/accounts/sessions';
import { authOf } from '../../../plugins/external/auth';
import { authErrors, errors, ok, sessionSchema } from './schemas';

const idParams = z.object({ id: z.uuid('must be an id') });
const revokedSchema = z.object({ revoked: z.number().int() });

/**
 * Sign-ins a person can see and end: their own list, ending one or all others, and an administrator
 * ending every sign-in of a user of their company.
 */
export async function registerSessionRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/sessions',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s live sign-ins (created, last used, user agent, address)',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(z.object({ items: z.array(sessionSchema) })), ...authErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const rows = await listSignIns(app.db, auth.userId);
      return envelope({
        items: rows.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          lastUsedAt: row.lastUsedAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          current: row._id === auth.sessionId,
        })),
      });
    },
  );

  app.delete(
    '/api/accounts/sessions/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'End one of the signed-in user’s sign-ins',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: ok(revokedSchema),
          400: errors[400],
          ...authErrors,
          404: errors[400].describe('No such sign-in of yours'),
        },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      const [own] = await app.db
        .select({ id: signIns.id })
        .from(signIns)
        .where(and(eq(signIns.id, id), eq(signIns.userId, auth.userId)));
      if (!own) throw notFound('The sign-in');
      const revoked = await revokeSignIn(app.db, id, 'ended by the user');
      if (revoked) {
        await recordAudit(app.db, {
          ...auditFrom(request),
          action: 'session.revoke',
          entityType: 'session',
          entityId: id,
          after: { reason: 'ended by the user' },
        });
      }
      return envelope({ revoked: revoked ? 1 : 0 }, 'The sign-in was ended.');
    },
  );

  app.post(
    '/api/accounts/sessions/revoke-others',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'End every sign-in of the signed-in user except this one',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(revokedSchema), ...authErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const revoked = await revokeAllSignIns(
        app.db,
        auth.userId,
        'ended by the user',
        auth.sessionId,
      );
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'session.revoke-others',
        entityType: 'user',
        entityId: auth.userId,
        after: { revoked },
      });
      return envelope({ revoked }, `${revoked} other sign-in${revoked === 1 ? '' : 's'} ended.`);
    },
  );

  app.post(
    '/api/users/:id/revoke-sessions',
    {
      preHandler: [app.authenticate, app.requirePermission('users.update')],
      schema: {
        tags: ['users'],
        summary: 'End every sign-in of a user of your company',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: ok(revokedSchema),
          400: errors[400],
          ...authErrors,
          404: errors[400].describe('No such user in your company'),
        },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      const [user] = await app.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, id), eq(users.companyId, auth.companyId)));
      if (!user) throw notFound('The user');
      const revoked = await revokeAllSignIns(app.db, id, 'ended by an administrator');
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'user.revoke-sessions',
        entityType: 'user',
        entityId: id,
        after: { revoked },
      });
      return envelope({ revoked }, `${revoked} sign-in${revoked === 1 ? '' : 's'} ended.`);
    },
  );
}
