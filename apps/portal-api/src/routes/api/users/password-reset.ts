import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { conflict } from '@pa/server-kit/errors';
import { auditFrom, recordAudit } from '../../../modules/audit/record';
import { effectivePermissionCodes } from '../../../modules/auth/effective-permissions';
import { assertHolds } from '../../../modules/roles/guards';
import { getUser } from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { mailResetLink } from '../accounts/account-mail';
import { crudErrors, idParams, okEmpty } from '../admin-schemas';

/**
 * An administrator mails a user the forgot-password flow's reset link. Under the rule of editing a
 * user: never to one holding permissions the caller lacks (the link would hand over their account).
 */
export async function registerUserPasswordResetRoute(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/users/:id/password-reset',
    {
      onRequest: app.requirePermission('users.update'),
      schema: {
        tags: ['users'],
        summary: 'Mail a user of your company a link to choose a new password (30 minutes)',
        description:
          'The same link as forgot-password. 403 when the user holds permissions you do not hold; 409 when the user is not active (the link would not work).',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: okEmpty, ...crudErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const user = await getUser(app.db, auth.companyId, request.params.id);
      if (user._id !== auth.userId) {
        assertHolds(
          auth,
          await effectivePermissionCodes(app.db, user._id, auth.companyId),
          'send this user a password reset link',
        );
      }
      if (user.status !== 'active') {
        throw conflict(
          `${user.userName} is ${user.status}: a reset link would not let them sign in. Make them active first.`,
        );
      }
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'user.password-reset-link',
        entityType: 'user',
        entityId: user._id,
        after: { email: user.email },
      });
      app.runInBackground(mailResetLink(app, user.email, 'administrator'), 'password reset mail');
      return envelope(null, `A password reset link was sent to ${user.email}.`);
    },
  );
}
