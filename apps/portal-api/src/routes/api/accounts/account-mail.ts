import type { FastifyInstance } from 'fastify';
import type { EmailChanged } from '../../../modules/accounts/account';
import {
  EMAIL_CHANGE_CONFIRM_TTL_MS,
  type RequestedEmailChange,
} from '../../../modules/accounts/email-change-requests';
import { issueResetToken } from '../../../modules/accounts/password-change';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;

/** A link into the web app: its configured address, never the request's Host header (a client's). */
export function webLink(app: FastifyInstance, pathname: string, token: string): string {
  const link = new URL(pathname, app.config.PUBLIC_URL);
  link.searchParams.set('token', token);
  return link.toString();
}

/** How long `seconds` is, in words for a mail ("7 days", "30 minutes"). */
export function inWords(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

const IGNORE_IT =
  'The link works once. If you did not ask for it, ignore this message: your password stays as it is.';

/** What opens and closes a reset mail, by why it is sent. */
const RESET_MAIL_TEXT = {
  forgot: {
    intro: [
      'Someone (hopefully you) asked to reset the password of your Power Analyzer account.',
      'Open this link within 30 minutes to choose a new password:',
    ],
    closing: IGNORE_IT,
  },
  administrator: {
    intro: [
      'An administrator of your company sent you a link to choose a new password for your',
      'Power Analyzer account. Open it within 30 minutes:',
    ],
    closing:
      'The link works once. If you do not want a new password, ignore this message: your password stays as it is.',
  },
  'email change undone': {
    intro: [
      'The change of your email address was undone and this address is your account’s again.',
      'Every sign-in of the account was ended and its password no longer works: whoever changed',
      'your email knew it. Open this link within 30 minutes to choose a new password:',
    ],
    closing:
      'The link works once. When it has expired, ask for a new one on the sign-in page ("Forgot password").',
  },
  'email change not undone': {
    intro: [
      'You asked to undo the change of your email address, but this address is now used by another',
      'account, so it could not come back. To protect your account, every sign-in of it was ended and',
      'its password no longer works. Open this link within 30 minutes to choose a new password, then',
      'ask your administrator to give your account back its address:',
    ],
    closing:
      'The link works once. When it has expired, ask your administrator to send you a new one.',
  },
} as const;

/**
 * Creates a reset token for the active account with this email and mails the link (nothing when
 * there is none). `why` opens the mail: a request on the forgot-password page, an administrator's
 * request, or an undone email change whose account must choose a new password. `userId` names the
 * account instead of `email` (an undo that could not bring its address back: the link then goes to
 * `email`, the mailbox the undo link proved, not to the account's current address).
 */
export async function mailResetLink(
  app: FastifyInstance,
  email: string,
  why: keyof typeof RESET_MAIL_TEXT,
  userId?: string,
) {
  const issued = await issueResetToken(app.db, email, RESET_TOKEN_TTL_MS, userId);
  if (!issued) return;
  const { user, token } = issued;
  const { intro, closing } = RESET_MAIL_TEXT[why];
  await app.mailer.send({
    to: userId ? email : user.email,
    subject: 'Reset your Power Analyzer password',
    text: [
      `Hello ${user.userName},`,
      '',
      ...intro,
      '',
      webLink(app, '/auth/reset-password', token),
      '',
      closing,
    ].join('\n'),
    secrets: [token],
  });
}

/**
 * Tells the OLD address that the account's email changed, with a single-use link to undo it (ADR 007):
 * the one thing a thief who changed it cannot hide from the owner. The same for a change by an
 * administrator of the company (ADR 020), which also ended every sign-in of the account.
 */
export async function mailEmailChangeNotice(app: FastifyInstance, changed: EmailChanged) {
  const byAdministrator = changed.by === 'administrator';
  await app.mailer.send({
    to: changed.oldEmail,
    subject: 'The email address of your Power Analyzer account was changed',
    text: [
      `Hello ${changed.userName},`,
      '',
      byAdministrator
        ? `An administrator of your company changed the email address of your Power Analyzer account from ${changed.oldEmail} to ${changed.newEmail}, and every sign-in of the account was ended.`
        : `The email address of your Power Analyzer account was changed from ${changed.oldEmail} to ${changed.newEmail}.`,
      'Mail about the account, password reset links included, now goes to the new address.',
      '',
      byAdministrator
        ? 'If you expected this change, there is nothing to do.'
        : 'If this was you, there is nothing to do.',
      '',
      `If ${byAdministrator ? 'you did not expect it' : 'it was not you'}, open this link within ${inWords(app.config.EMAIL_CHANGE_UNDO_TTL)} to undo the change:`,
      '',
      webLink(app, '/auth/undo-email-change', changed.undoToken),
      '',
      'Undoing brings this address back, ends every sign-in of the account and disables its password;',
      'a link to choose a new password then comes to this address.',
    ].join('\n'),
    secrets: [changed.undoToken],
  });
}

/**
 * Asks the NEW address to confirm an email change (ADR 026): the change applies only when this
 * link is opened, so a mistyped address moves nothing.
 */
export async function mailEmailChangeConfirmation(
  app: FastifyInstance,
  requested: RequestedEmailChange,
) {
  await app.mailer.send({
    to: requested.newEmail,
    subject: 'Confirm the new email address of your Power Analyzer account',
    text: [
      `Hello ${requested.userName},`,
      '',
      `You asked to use ${requested.newEmail} as the email address of your Power Analyzer account.`,
      `Open this link within ${inWords(EMAIL_CHANGE_CONFIRM_TTL_MS / 1000)} to confirm it; until then the account keeps its current address:`,
      '',
      webLink(app, '/auth/confirm-email-change', requested.token),
      '',
      'The link works once. If you did not ask for this, ignore this message: nothing changes.',
    ].join('\n'),
    secrets: [requested.token],
  });
}
