import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { updateMeSchema } from '@pa/contracts/accounts';
import { notFound } from '@pa/server-kit/errors';
import { updateOwnAccount } from '../../../modules/accounts/account';
import { auditFrom } from '../../../modules/audit/record';
import { loadUserDetails } from '../../../modules/accounts/user-details';
import { authOf } from '../../../plugins/external/auth';
import { authErrors, errors, ok, userDetailsSchema } from './schemas';

/** `PATCH /accounts/me`: a user edits their own name and email (never their roles or status). */
export async function registerMeRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.patch(
    '/api/accounts/me',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Edit the signed-in user’s first name, last name or email',
        security: [{ bearerAuth: [] }],
        body: updateMeSchema,
        response: {
          200: ok(userDetailsSchema),
          400: errors[400],
          ...authErrors,
          409: errors[400].describe('Email already used'),
        },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await updateOwnAccount(app.db, auth.userId, request.body, auditFrom(request));
      const details = await loadUserDetails(app.db, auth.userId);
      if (!details) throw notFound('The account');
      return envelope(details, 'Your account was updated.');
    },
  );
}
