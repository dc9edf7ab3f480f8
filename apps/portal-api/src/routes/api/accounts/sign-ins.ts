import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSessionSchema } from '@pa/contracts/accounts';
import { ok as envelope } from '@pa/contracts/envelope';
import { endSignIns } from '../../../modules/accounts/end-sign-ins';
import {
  isSignInOf,
  listSignIns,
  revokeAllSignIns,
  revokeSignIn,
} from '../../../modules/accounts/sign-ins';
import { authOf } from '../../../plugins/app/auth';
import { authErrors, errors, idParams, ok, revokedSchema } from './schemas';

/**
 * Sign-ins a person can see and end: their own list, ending one or all others (an administrator ends
 * every sign-in of a user at routes/api/users/revoke-sign-ins.ts). The URLs, the contract's
 * `accountSessionSchema` and the audit names (`session.revoke`, entity type `session`) keep the old
 * word for a sign-in: the web app, outside clients and stored audit events use them (docs/glossary.md).
 */
export async function registerSignInListRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/sessions',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s live sign-ins (created, last used, user agent, address)',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(z.object({ items: z.array(accountSessionSchema) })), ...authErrors },
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
          current: row._id === auth.signInId,
        })),
      });
    },
  );

  app.delete(
    '/api/accounts/sessions/:id',
    {
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
      const revoked = await endSignIns(app.db, request, {
        target: {
          what: 'The sign-in',
          exists: () => isSignInOf(app.db, id, auth.userId),
        },
        end: async () => ((await revokeSignIn(app.db, id, 'ended by the user')) ? 1 : 0),
        audit: { action: 'session.revoke', entityType: 'session', entityId: id },
        after: () => ({ reason: 'ended by the user' }),
        auditNone: false,
      });
      return envelope({ revoked }, 'The sign-in was ended.');
    },
  );

  app.post(
    '/api/accounts/sessions/revoke-others',
    {
      schema: {
        tags: ['accounts'],
        summary: 'End every sign-in of the signed-in user except this one',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(revokedSchema), ...authErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const revoked = await endSignIns(app.db, request, {
        end: () => revokeAllSignIns(app.db, auth.userId, 'ended by the user', auth.signInId),
        audit: { action: 'session.revoke-others', entityType: 'user', entityId: auth.userId },
        after: (count) => ({ revoked: count }),
      });
      return envelope({ revoked }, `${revoked} other sign-in${revoked === 1 ? '' : 's'} ended.`);
    },
  );
}
