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
import {
  changePassword,
  issueResetToken,
  passwordHashOf,
  resetPasswordWithToken,
} from '../../../modules/accounts/password-change';
import { auditFrom } from '../../../modules/audit/record';
import { hashPassword, passwordProblem, verifyPassword } from '../../../modules/accounts/passwords';
import { ResetMailLimits } from '../../../modules/accounts/limits';
import { authOf } from '../../../plugins/external/auth';
import { authErrors, errors, okEmpty } from './schemas';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const FORGOT_PASSWORD_ANSWER =
  'If an account uses this email, a link to reset its password is on its way. It works for 30 minutes.';

/** Forgot / reset / change password (docs/product/services.md §4). */
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

  /** Creates a reset token and mails the link; runs after the answer so timing says nothing. */
  async function sendResetLink(email: string) {
    const issued = await issueResetToken(app.db, email, RESET_TOKEN_TTL_MS);
    if (!issued) return;
    const { user, token } = issued;
    // The web app's configured address, never the request's Host header (which a client controls).
    const link = new URL('/auth/reset-password', config.PUBLIC_URL);
    link.searchParams.set('token', token);
    await app.mailer.send({
      to: user.email,
      subject: 'Reset your Power Analyzer password',
      text: [
        `Hello ${user.userName},`,
        '',
        'Someone (hopefully you) asked to reset the password of your Power Analyzer account.',
        `Open this link within 30 minutes to choose a new password:`,
        '',
        link.toString(),
        '',
        'The link works once. If you did not ask for it, ignore this message: your password stays as it is.',
      ].join('\n'),
      secrets: [token],
    });
  }

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
        app.runInBackground(sendResetLink(request.body.email), 'password reset mail');
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

  app.post(
    '/api/accounts/change-password',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Change the signed-in user’s password; ends their other sign-ins',
        security: [{ bearerAuth: [] }],
        body: changePasswordSchema,
        response: { 200: okEmpty, 400: errors[400], ...authErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { currentPassword, newPassword } = request.body;
      if (!(await verifyPassword(await passwordHashOf(app.db, auth.userId), currentPassword))) {
        throw invalidField('currentPassword', 'The current password is not correct.');
      }
      const problem = passwordProblem(newPassword);
      if (problem) throw invalidField('newPassword', problem);
      if (newPassword === currentPassword) {
        throw invalidField('newPassword', 'The new password must differ from the current one');
      }
      const passwordHash = await hashPassword(newPassword);
      await changePassword(app.db, auth.userId, passwordHash, auth.sessionId, auditFrom(request));
      return envelope(null, 'Your password was changed. Your other sign-ins were ended.');
    },
  );
}
