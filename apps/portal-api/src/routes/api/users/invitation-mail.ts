import type { FastifyInstance } from 'fastify';
import type { Invitation } from '@pa/contracts/invitations';
import { inWords, webLink } from '../accounts/account-mail';

/**
 * Mails an invitation's single-use link to the invitee (the token is redacted from every copy kept).
 * When the address already has an account (any company) or is held for an undo (`addressInUse`),
 * the mail says so and carries no link: one address belongs to one account, so accepting would be
 * refused. The inviting company is not told (ADR 020); the mailbox's owner is. The inviter is named
 * as a person knows them (`inviterName`: first and last name when the account has them).
 */
export async function mailInvitation(
  app: FastifyInstance,
  invitation: Invitation,
  token: string,
  companyName: string,
  addressInUse: boolean,
  inviterName: string,
) {
  const greeting = invitation.userFirstName ? `Hello ${invitation.userFirstName},` : 'Hello,';
  const roles = invitation.roles.map((role) => role.name).join(', ');
  const invited = `${inviterName} invited you to join ${companyName} on Power Analyzer${roles ? ` (roles: ${roles})` : ''}.`;
  const body = addressInUse
    ? [
        '',
        `You already have a Power Analyzer account with ${invitation.email}, and an address can belong to`,
        'one account only, so this invitation cannot be accepted with it. To join, ask',
        `${inviterName} to invite another address of yours. To keep using your account,`,
        'sign in as usual; if you cannot, use "Forgot password" on the sign-in page.',
        '',
        'If you did not expect this invitation, ignore this message.',
      ]
    : [
        `Open this link within ${inWords(app.config.INVITATION_TTL)} to choose your user name and password:`,
        '',
        webLink(app, '/auth/accept-invitation', token),
        '',
        'The link works once. If you did not expect this invitation, ignore this message.',
      ];
  await app.mailer.send({
    to: invitation.email,
    subject: `You are invited to ${companyName} on Power Analyzer`,
    text: [greeting, '', invited, ...body].join('\n'),
    secrets: addressInUse ? [] : [token],
  });
}
