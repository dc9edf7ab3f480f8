import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { auditFrom } from '../../../modules/audit/record';
import { approveResetLink } from '../../../modules/users/password-reset';
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
      const email = await approveResetLink(
        app.db,
        authOf(request),
        request.params.id,
        auditFrom(request),
      );
      app.runInBackground(mailResetLink(app, email, 'administrator'), 'password reset mail');
      return envelope(null, `A password reset link was sent to ${email}.`);
    },
  );
}
