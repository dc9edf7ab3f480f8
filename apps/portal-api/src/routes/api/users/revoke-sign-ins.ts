import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { endSignIns } from '../../../modules/accounts/end-sign-ins';
import { revokeAllSignIns } from '../../../modules/accounts/sign-ins';
import { assertMayManageUser } from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { revokedSchema } from '../accounts/schemas';
import { idParams, ok, userActionErrors } from '../admin-schemas';

/**
 * An administrator ends every sign-in of a user of their company: under the rule of editing one
 * (no escalation), never of a user holding permissions the caller lacks. The URL and the audit action
 * `user.revoke-sessions` keep the old word for sign-ins (clients and stored events use them).
 */
export async function registerUserSignInRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/users/:id/revoke-sessions',
    {
      preHandler: app.requirePermission('users.update'),
      schema: {
        tags: ['users'],
        summary: 'End every sign-in of a user of your company',
        description:
          'Like editing a user: 403 when the user holds permissions you do not hold yourself.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: ok(revokedSchema), ...userActionErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      await assertMayManageUser(app.db, auth, id, 'end the sign-ins of this user');
      const revoked = await endSignIns(app.db, request, {
        end: () => revokeAllSignIns(app.db, id, 'ended by an administrator'),
        audit: { action: 'user.revoke-sessions', entityType: 'user', entityId: id },
        after: (count) => ({ revoked: count }),
      });
      return envelope({ revoked }, `${revoked} sign-in${revoked === 1 ? '' : 's'} ended.`);
    },
  );
}
