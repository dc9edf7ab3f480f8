import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  changePasswordSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
} from '@pa/contracts/accounts';
import { invalidField } from '@pa/server-kit/errors';
import { clientInfo } from '../../../modules/client-info';
import { changePassword, resetPasswordWithToken } from '../../../modules/accounts/password-change';
import { auditFrom } from '../../../modules/audit/record';
import { hashPassword, passwordProblem } from '../../../modules/accounts/passwords';
import { ResetMailLimits } from '../../../modules/accounts/limits';
import { authOf } from '../../../plugins/app/auth';
import { mailResetLink } from './account-mail';
import { authErrors, errors, okEmpty } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';

const FORGOT_PASSWORD_ANSWER =
  'If an account uses this email, a link to reset its password is on its way. It works for 30 minutes.';

/** Forgot / reset password (docs/product/services.md §4); changing it is a signed-in route, below. */
export async function registerPasswordRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const mailLimits = new ResetMailLimits(
    {
      perEmail: config.FORGOT_PASSWORD_LIMIT_EMAIL,
      perClient: config.FORGOT_PASSWORD_LIMIT_IP,
      windowSeconds: config.FORGOT_PASSWORD_LIMIT_WINDOW,
    },
    app.limiterStore,
  );

  app.post(
    '/api/accounts/forgot-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Mail a password reset link (always the same answer)',
        description:
          'At most FORGOT_PASSWORD_LIMIT_EMAIL mails per email address and FORGOT_PASSWORD_LIMIT_IP requests per client address in a window; over either, no mail is sent and the answer is still the same.',
        body: forgotPasswordSchema,
        response: { 200: okEmpty, 400: errors[400] },
      },
    },
    async (request) => {
      if (await mailLimits.allow(request.body.email, request.ip)) {
        app.runInBackground(
          mailResetLink(app, request.body.email, 'forgot'),
          'password reset mail',
        );
      }
      return envelope(null, FORGOT_PASSWORD_ANSWER);
    },
  );

  app.post(
    '/api/accounts/reset-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with a reset token; ends every sign-in of the account',
        body: resetPasswordSchema,
        response: { 200: okEmpty, 400: errors[400] },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      const problem = passwordProblem(password);
      if (problem) throw invalidField('password', problem);
      const passwordHash = await hashPassword(password);
      const done = await resetPasswordWithToken(app.db, token, passwordHash, clientInfo(request));
      if (!done) {
        throw invalidField(
          'token',
          'This reset link is invalid, used or expired. Ask for a new one.',
        );
      }
      return envelope(null, 'Your password was changed. Sign in with the new password.');
    },
  );
}

/**
 * Changing the password of the signed-in account.
 * Behind the signed-in group's `authenticate` hook (accounts/index.ts).
 */
export async function registerPasswordChangeRoute(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/accounts/change-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change the signed-in user’s password; ends their other sign-ins',
        description:
          'A wrong `currentPassword` answers 400 naming it and counts as a failed sign-in of the user name (429 with Retry-After while limited). The device cookie is renewed for the new password.',
        security: [{ bearerAuth: [] }],
        body: changePasswordSchema,
        response: {
          200: okEmpty,
          400: errors[400],
          ...authErrors,
          429: errors[401].describe('Too many wrong passwords; see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { currentPassword, newPassword } = request.body;
      const proven = await guard.proveCurrentPassword(
        request,
        reply,
        auth.userId,
        currentPassword,
        'password change',
      );
      const problem = passwordProblem(newPassword);
      if (problem) throw invalidField('newPassword', problem);
      if (newPassword === currentPassword) {
        throw invalidField('newPassword', 'The new password must differ from the current one');
      }
      const passwordHash = await hashPassword(newPassword);
      const passwordChangedAt = await changePassword(
        app.db,
        auth.userId,
        passwordHash,
        auth.signInId,
        auditFrom(request),
      );
      // Device cookies are bound to the password: this browser keeps its allowance, others lose it.
      await guard.rememberDevice(reply, { id: auth.userId, passwordChangedAt }, proven.deviceId);
      return envelope(null, 'Your password was changed. Your other sign-ins were ended.');
    },
  );
}
