import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  mfaCoverageQuerySchema,
  mfaCoverageSchema,
  mfaPolicySchema,
  secondStepResetSchema,
} from '@pa/contracts/mfa';
import { forbidden } from '@pa/server-kit/errors';
import { auditFrom } from '../../../modules/audit/record';
import { changePolicy, resetSecondStep } from '../../../modules/mfa/administration';
import { policyCoverage, policyOf } from '../../../modules/mfa/policy';
import { assertMayManageUser } from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { authErrors, errors, idParams, ok } from '../accounts/schemas';
import { userActionErrors } from '../admin-schemas';

/**
 * The company's two-step policy and an administrator's reset of a user's second step (ADR 011).
 * Both need `users.update`, the permission that already governs how users sign in.
 */
export async function registerSecurityRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/security/mfa-policy',
    {
      preHandler: app.requirePermission('users.read'),
      schema: {
        tags: ['security'],
        summary: 'Who in your company must have a second step',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(mfaPolicySchema), ...authErrors },
      },
    },
    async (request) => envelope(await policyOf(app.db, authOf(request).companyId)),
  );

  app.get(
    '/api/security/mfa-policy/coverage',
    {
      preHandler: app.requirePermission('users.read'),
      schema: {
        tags: ['security'],
        summary: 'Who a two-step policy would reach, before you save it',
        description:
          'Among your company’s active users: who already has a second step (`withSecondStep`, with the first few names), how many the policy requires one of (`required`), and who of those has none and would set one up at their next sign-in (`toSetUp`). `permissionCodes` is comma-separated; unknown codes reach nobody.',
        security: [{ bearerAuth: [] }],
        querystring: mfaCoverageQuerySchema,
        response: { 200: ok(mfaCoverageSchema), 400: errors[400], ...authErrors },
      },
    },
    async (request) =>
      envelope(await policyCoverage(app.db, authOf(request).companyId, request.query)),
  );

  app.put(
    '/api/security/mfa-policy',
    {
      preHandler: app.requirePermission('users.update'),
      schema: {
        tags: ['security'],
        summary: 'Require a second step of nobody, everyone, or holders of chosen permissions',
        description:
          'Applies from each user’s next sign-in: one who must and has none is taken to enrolment right after the password and gets no tokens until done. `permissionCodes` must be codes of your company.',
        security: [{ bearerAuth: [] }],
        body: mfaPolicySchema,
        response: { 200: ok(mfaPolicySchema), 400: errors[400], ...authErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const saved = await changePolicy(app.db, auth.companyId, request.body, auditFrom(request));
      return envelope(saved, 'Two-step policy saved.');
    },
  );

  app.post(
    '/api/users/:id/reset-second-step',
    {
      preHandler: app.requirePermission('users.update'),
      schema: {
        tags: ['users'],
        summary: 'Remove a user’s authenticator app, recovery codes and passkeys',
        description:
          'For a user who lost their device: every sign-in of theirs ends, and at their next sign-in they set up a new second step right after the password when the company policy requires one of them (`enrolmentRequired`), else they sign in with the password alone. Like editing a user: 403 for a user holding permissions you do not hold, and for yourself.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: ok(secondStepResetSchema), ...userActionErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      if (id === auth.userId)
        throw forbidden('You cannot reset your own second step: change it from your account page.');
      await assertMayManageUser(app.db, auth, id, 'reset the second step of this user');
      const removed = await resetSecondStep(
        app.db,
        { id, companyId: auth.companyId },
        auditFrom(request),
      );
      return envelope(
        removed,
        removed.enrolmentRequired
          ? 'Second step reset. Their sign-ins were ended; the company policy has them set up a new second step at their next sign-in.'
          : 'Second step reset. Their sign-ins were ended; they sign in with their password alone until they set up a new second step.',
      );
    },
  );
}
