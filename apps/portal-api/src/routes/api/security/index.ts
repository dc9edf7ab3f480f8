import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  mfaCoverageQuerySchema,
  mfaCoverageSchema,
  mfaPolicySchema,
  secondStepResetSchema,
} from '@pa/contracts/mfa';
import { forbidden, invalidField, notFound } from '@pa/server-kit/errors';
import { and, eq, inArray } from 'drizzle-orm';
import { permissions } from '../../../db/schema';
import { auditFrom, recordAudit } from '../../../modules/audit/record';
import { effectivePermissionCodes } from '../../../modules/auth/effective-permissions';
import { revokeAllSignIns } from '../../../modules/accounts/sign-ins';
import {
  mustHaveSecondStep,
  policyCoverage,
  policyOf,
  savePolicy,
} from '../../../modules/mfa/policy';
import { removeSecondSteps } from '../../../modules/mfa/second-step';
import { assertHolds, lockCompany } from '../../../modules/roles/guards';
import { userInCompany } from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { authErrors, errors, idParams, ok } from '../accounts/schemas';

/**
 * The company's two-step policy and an administrator's reset of a user's second step (ADR 011).
 * Both need `users.update`, the permission that already governs how users sign in.
 */
export async function registerSecurityRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/security/mfa-policy',
    {
      preHandler: [app.authenticate, app.requirePermission('users.read')],
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
      preHandler: [app.authenticate, app.requirePermission('users.read')],
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
      preHandler: [app.authenticate, app.requirePermission('users.update')],
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
      const codes = [...new Set(request.body.permissionCodes)];
      if (request.body.requireFor === 'permissions') {
        const known = await app.db
          .select({ code: permissions.code })
          .from(permissions)
          .where(and(eq(permissions.companyId, auth.companyId), inArray(permissions.code, codes)));
        const unknown = codes.filter((code) => !known.some((row) => row.code === code));
        if (unknown.length > 0)
          throw invalidField('permissionCodes', `No such permission: ${unknown.join(', ')}.`);
      }
      const saved = await app.db.transaction(async (tx) => {
        await lockCompany(tx, auth.companyId);
        const before = await policyOf(tx, auth.companyId);
        await savePolicy(tx, auth.companyId, request.body);
        const after = await policyOf(tx, auth.companyId);
        await recordAudit(tx, {
          ...auditFrom(request),
          action: 'company.mfa-policy-change',
          entityType: 'company',
          entityId: auth.companyId,
          before: { ...before },
          after: { ...after },
        });
        return after;
      });
      return envelope(saved, 'Two-step policy saved.');
    },
  );

  app.post(
    '/api/users/:id/reset-second-step',
    {
      preHandler: [app.authenticate, app.requirePermission('users.update')],
      schema: {
        tags: ['users'],
        summary: 'Remove a user’s authenticator app, recovery codes and passkeys',
        description:
          'For a user who lost their device: every sign-in of theirs ends, and at their next sign-in they set up a new second step right after the password when the company policy requires one of them (`enrolmentRequired`), else they sign in with the password alone. Like editing a user: 403 for a user holding permissions you do not hold, and for yourself.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: ok(secondStepResetSchema),
          400: errors[400],
          ...authErrors,
          404: errors[400].describe('No such user in your company'),
        },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      if (id === auth.userId)
        throw forbidden('You cannot reset your own second step: change it from your account page.');
      if (!(await userInCompany(app.db, auth.companyId, id))) throw notFound('The user');
      assertHolds(
        auth,
        await effectivePermissionCodes(app.db, id, auth.companyId),
        'reset the second step of this user',
      );
      const removed = await app.db.transaction(async (tx) => {
        const counts = await removeSecondSteps(tx, id);
        // The lost device may be in someone else's hands, still signed in: like a password reset,
        // the reset ends every sign-in of the user (issue #43), so only a new sign-in — with the
        // policy's enrolment when it applies — gets in again.
        const signInsEnded = await revokeAllSignIns(tx, id, 'second step reset');
        const enrolmentRequired = await mustHaveSecondStep(tx, { id, companyId: auth.companyId });
        await recordAudit(tx, {
          ...auditFrom(request),
          action: 'user.second-step-reset',
          entityType: 'user',
          entityId: id,
          before: counts,
          after: { signInsEnded, enrolmentRequired },
        });
        return { ...counts, signInsEnded, enrolmentRequired };
      });
      return envelope(
        removed,
        removed.enrolmentRequired
          ? 'Second step reset. Their sign-ins were ended; the company policy has them set up a new second step at their next sign-in.'
          : 'Second step reset. Their sign-ins were ended; they sign in with their password alone until they set up a new second step.',
      );
    },
  );
}
