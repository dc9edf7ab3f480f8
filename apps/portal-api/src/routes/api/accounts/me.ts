import type { FastifyInstance } from 'fastify';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { updateMeSchema } from '@pa/contracts/accounts';
import { conflict, notFound } from '@pa/server-kit/errors';
import { users } from '../../../db/schema';
import { auditFrom, changedFields, recordAudit } from '../../../modules/audit/record';
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
      const patch = { ...request.body, email: request.body.email?.toLowerCase() };
      const result = await app.db.transaction(async (tx) => {
        const [before] = await tx
          .select({
            userFirstName: users.userFirstName,
            userLastName: users.userLastName,
            email: users.email,
          })
          .from(users)
          .where(eq(users.id, auth.userId));
        if (!before) throw notFound('The account');
        if (patch.email && patch.email !== before.email) {
          const [taken] = await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(sql`lower(${users.email})`, patch.email), ne(users.id, auth.userId)));
          if (taken) throw conflict('This email is already used by another account.');
        }
        const after = {
          userFirstName: patch.userFirstName ?? before.userFirstName,
          userLastName: patch.userLastName ?? before.userLastName,
          email: patch.email ?? before.email,
        };
        const diff = changedFields(before, after);
        if (Object.keys(diff.after).length === 0) return;
        await tx
          .update(users)
          .set({ ...after, updatedAt: new Date(), version: sql`${users.version} + 1` })
          .where(eq(users.id, auth.userId));
        await recordAudit(tx, {
          ...auditFrom(request),
          action: 'account.update',
          entityType: 'user',
          entityId: auth.userId,
          ...diff,
        });
      });
      void result;
      const details = await loadUserDetails(app.db, auth.userId);
      if (!details) throw notFound('The account');
      return envelope(details, 'Your account was updated.');
    },
  );
}
