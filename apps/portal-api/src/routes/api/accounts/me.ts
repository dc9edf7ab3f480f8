import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  confirmEmailChangeSchema,
  emailChanges,
  pendingEmailChangeSchema,
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
import {
  cancelEmailChange,
  confirmEmailChange,
  pendingEmailChange,
  resendEmailChange,
} from '../../../modules/accounts/email-change-requests';
import { hashPassword } from '../../../modules/accounts/passwords';
import { newOpaqueToken } from '../../../modules/accounts/sign-ins';
import { auditFrom } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import { loadUserDetails } from '../../../modules/accounts/user-details';
import { authOf } from '../../../plugins/app/auth';
import { mailEmailChangeConfirmation, mailEmailChangeNotice, mailResetLink } from './account-mail';
import { authErrors, errors, ok, userDetailsSchema } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';

/**
 * `PATCH /accounts/me`: a user edits their own name and email (never their roles or status); an
 * email change needs the current password, applies only when the new address confirms it
 * (`POST /accounts/confirm-email-change`, ADR 026) and can then be undone from the old address
 * (`POST /accounts/undo-email-change`, ADR 007). These two public routes (the token proves the
 * mailbox) are here; the signed-in ones in `registerSignedInMeRoutes`.
 */
export async function registerMeRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const undoTtlMs = app.config.EMAIL_CHANGE_UNDO_TTL * 1000;

  app.post(
    '/api/accounts/confirm-email-change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Confirm an email change with the link mailed to the new address',
        description:
          'Public: the token proves the new mailbox. The email changes now; the old address is mailed a notice with a single-use undo link, the account’s reset links die and every sign-in ends but the one that asked for the change. 400 naming `token` when unknown, used, cancelled or expired; 409 when the address can no longer be used (nothing changes).',
        body: confirmEmailChangeSchema,
        response: {
          200: ok(undoEmailChangeAnswerSchema),
          400: errors[400],
          409: errors[400].describe('This email address cannot be used'),
        },
      },
    },
    async (request) => {
      const changed = await confirmEmailChange(
        app.db,
        request.body.token,
        undoTtlMs,
        clientInfo(request),
      );
      app.runInBackground(mailEmailChangeNotice(app, changed), 'email change notice');
      return envelope(
        { email: changed.newEmail },
        `Your email is now ${changed.newEmail}. A notice went to ${changed.oldEmail}.`,
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

/** The refusals of a call on the pending email change: none pending is a 404. */
const pendingChangeResponse = {
  200: ok(pendingEmailChangeSchema),
  ...authErrors,
  404: errors[400].describe('No email change is pending'),
};

/** The pending email change of an account, as the answers show it. */
async function pendingAnswer(db: FastifyInstance['db'], userId: string) {
  const pending = await pendingEmailChange(db, userId);
  return {
    pending: pending && {
      newEmail: pending.newEmail,
      expiresAt: pending.expiresAt.toISOString(),
    },
  };
}

/** PATCH /api/accounts/me: what it takes and answers. */
const updateMeRouteSchema = {
  tags: ['accounts'],
  summary: 'Edit the signed-in user’s first name, last name or email',
  description:
    'Changing the email needs `currentPassword` (a wrong one answers 400 naming it and counts as a failed sign-in of the user name; 429 with Retry-After while limited). The email does not change yet: the NEW address is mailed a link (24 hours, single use) and the change applies when it is opened (`POST /api/accounts/confirm-email-change`); until then `GET /api/accounts/me/email-change` shows it pending. On confirmation the old address is mailed a notice with a single-use link to undo the change, the account’s reset links die and every other sign-in ends.',
  security: [{ bearerAuth: [] }],
  body: updateMeSchema,
  response: {
    200: ok(userDetailsSchema),
    400: errors[400],
    ...authErrors,
    409: errors[400].describe('This email address cannot be used'),
    429: errors[401].describe('Too many wrong passwords; see Retry-After'),
  },
};

/**
 * The signed-in account itself and its pending email change.
 * Behind the signed-in group's `authenticate` hook (accounts/index.ts).
 */
export async function registerSignedInMeRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.patch(
    '/api/accounts/me',
    {
      schema: updateMeRouteSchema,
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
      const requested = await updateOwnAccount(app.db, auth.userId, changes, auditFrom(request), {
        keepSignIn: auth.signInId,
        passwordProven: provingEmail,
      });
      if (requested)
        app.runInBackground(
          mailEmailChangeConfirmation(app, requested),
          'email change confirmation mail',
        );
      const details = await loadUserDetails(app.db, auth.userId);
      if (!details) throw notFound('The account');
      return envelope(
        details,
        requested
          ? `Your account was updated. To change your email to ${requested.newEmail}, open the link we sent there within 24 hours; until then your email stays ${current}.`
          : 'Your account was updated.',
      );
    },
  );

  app.get(
    '/api/accounts/me/email-change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s email change waiting for the new address, if any',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(pendingEmailChangeSchema), ...authErrors },
      },
    },
    async (request) => envelope(await pendingAnswer(app.db, authOf(request).userId)),
  );

  app.delete(
    '/api/accounts/me/email-change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Cancel the email change waiting for the new address',
        description: 'Its link stops working; the email stays as it is. 404 when none is pending.',
        security: [{ bearerAuth: [] }],
        response: pendingChangeResponse,
      },
    },
    async (request) => {
      const auth = authOf(request);
      const cancelled = await cancelEmailChange(app.db, auth.userId, auditFrom(request));
      return envelope(
        await pendingAnswer(app.db, auth.userId),
        `The change to ${cancelled} was cancelled; your email stays as it is.`,
      );
    },
  );

  app.post(
    '/api/accounts/me/email-change/resend',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Mail the new address a new confirmation link',
        description:
          'The previous link stops working; the new one works 24 hours. 404 when none is pending.',
        security: [{ bearerAuth: [] }],
        response: pendingChangeResponse,
      },
    },
    async (request) => {
      const auth = authOf(request);
      const requested = await resendEmailChange(app.db, auth.userId);
      app.runInBackground(
        mailEmailChangeConfirmation(app, requested),
        'email change confirmation mail',
      );
      return envelope(
        await pendingAnswer(app.db, auth.userId),
        `A new link is on its way to ${requested.newEmail}.`,
      );
    },
  );
}
