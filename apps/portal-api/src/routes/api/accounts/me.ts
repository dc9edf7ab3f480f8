import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  emailChanges,
  undoEmailChangeAnswerSchema,
  undoEmailChangeSchema,
  updateMeSchema,
} from '@pa/contracts/accounts';
import { conflict, invalidField, notFound } from '@pa/server-kit/errors';
import {
  currentPasswordNeeded,
  emailOf,
  updateOwnAccount,
} from '../../../modules/accounts/account';
import { isLiveUndoToken, undoEmailChange } from '../../../modules/accounts/email-change';
import { hashPassword } from '../../../modules/accounts/passwords';
import { newOpaqueToken } from '../../../modules/accounts/sign-ins';
import { auditFrom } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import { loadUserDetails } from '../../../modules/accounts/user-details';
import { authOf } from '../../../plugins/app/auth';
import { mailEmailChangeNotice, mailResetLink } from './account-mail';
import { authErrors, errors, ok, userDetailsSchema } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';

/**
 * `PATCH /accounts/me`: a user edits their own name and email (never their roles or status); an
 * email change needs the current password and can be undone from the old address
 * (`POST /accounts/undo-email-change`, ADR 007).
 */
export async function registerMeRoutes(base: FastifyInstance, { guard }: { guard: SignInGuard }) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const undoTtlMs = app.config.EMAIL_CHANGE_UNDO_TTL * 1000;

  app.patch(
    '/api/accounts/me',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Edit the signed-in user’s first name, last name or email',
        description:
          'Changing the email needs `currentPassword` (a wrong one answers 400 naming it and counts as a failed sign-in of the user name; 429 with Retry-After while limited). Then the old address is mailed a notice with a single-use link to undo the change, the account’s reset links die and every other sign-in ends.',
        security: [{ bearerAuth: [] }],
        body: updateMeSchema,
        response: {
          200: ok(userDetailsSchema),
          400: errors[400],
          ...authErrors,
          409: errors[400].describe('This email address cannot be used'),
          429: errors[401].describe('Too many wrong passwords; see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { currentPassword, ...changes } = request.body;
      const current = await emailOf(app.db, auth.userId);
      if (current === null) throw notFound('The account');
      const provingEmail = emailChanges(current, changes.email);
      if (provingEmail) {
        if (!currentPassword) throw currentPasswordNeeded();
        await guard.proveCurrentPassword(
          request,
          reply,
          auth.userId,
          currentPassword,
          'email change',
        );
      }
      const changed = await updateOwnAccount(app.db, auth.userId, changes, auditFrom(request), {
        keepSignIn: auth.signInId,
        undoTtlMs,
        passwordProven: provingEmail,
      });
      if (changed) app.runInBackground(mailEmailChangeNotice(app, changed), 'email change notice');
      const details = await loadUserDetails(app.db, auth.userId);
      if (!details) throw notFound('The account');
      return envelope(
        details,
        changed
          ? `Your account was updated. A notice went to ${changed.oldEmail}; your other sign-ins were ended.`
          : 'Your account was updated.',
      );
    },
  );

  app.post(
    '/api/accounts/undo-email-change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Undo an email change with the link mailed to the old address',
        description:
          'Public: the token proves the old mailbox. Restores the old email, ends every sign-in of the account, disables its password (whoever changed the email knew it) and mails a reset link to the restored address. Single use; a later change’s links die with it. 400 naming `token` when unknown, used or expired. The old address is held for the undo window, so no other account can take it; should one have it all the same (outside those rules), the answer is 409 and the account is secured anyway: sign-ins ended, password disabled, a reset link mailed to the old address.',
        body: undoEmailChangeSchema,
        response: {
          200: ok(undoEmailChangeAnswerSchema),
          400: errors[400],
          409: errors[400].describe(
            'The old address is another account’s: not restored, but the account was secured',
          ),
        },
      },
    },
    async (request) => {
      const invalid = () => invalidField('token', 'This link is invalid, used or expired.');
      if (!(await isLiveUndoToken(app.db, request.body.token))) throw invalid();
      // A hash of a secret nobody knows: the password stops working, and checks still take their time.
      const disabledPasswordHash = await hashPassword(newOpaqueToken());
      const undone = await undoEmailChange(
        app.db,
        request.body.token,
        disabledPasswordHash,
        clientInfo(request),
      );
      // Spent by a concurrent undo between the check and the transaction.
      if (!undone) throw invalid();
      if (!undone.restored) {
        // The defensive path (ADR 020): the account is secured all the same; the reset link goes
        // to the address the undo link proved, for this account.
        app.runInBackground(
          mailResetLink(app, undone.email, 'email change not undone', undone.userId),
          'password reset mail after an email change that could not be undone',
        );
        throw conflict(
          `The address ${undone.email} is now used by another account, so it could not come back. To protect your account, every sign-in of it was ended and its password disabled: a link to choose a new password is on its way to ${undone.email}. Ask your administrator to give your account back its address.`,
        );
      }
      app.runInBackground(
        mailResetLink(app, undone.email, 'email change undone'),
        'password reset mail after an undone email change',
      );
      return envelope(
        { email: undone.email },
        `Your email is ${undone.email} again. Every sign-in of your account was ended and its password disabled: a link to choose a new one is on its way to ${undone.email}.`,
      );
    },
  );
}
