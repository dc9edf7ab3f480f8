import type { FastifyInstance } from 'fastify';
import type { Invitation } from '@pa/contracts/invitations';
import { inWords, webLink } from '../accounts/account-mail';

/** Mails an invitation's single-use link to the invitee (the token is redacted from every copy kept). */
export async function mailInvitation(
  app: FastifyInstance,
  invitation: Invitation,
  token: string,
  companyName: string,
) {
  const greeting = invitation.userFirstName ? `Hello ${invitation.userFirstName},` : 'Hello,';
  const roles = invitation.roles.map((role) => role.name).join(', ');
  await app.mailer.send({
    to: invitation.email,
    subject: `You are invited to ${companyName} on Power Analyzer`,
    text: [
      greeting,
      '',
      `${invitation.invitedBy.userName} invited you to join ${companyName} on Power Analyzer${roles ? ` (roles: ${roles})` : ''}.`,
      `Open this link within ${inWords(app.config.INVITATION_TTL)} to choose your user name and password:`,
      '',
      webLink(app, '/auth/accept-invitation', token),
      '',
      'The link works once. If you did not expect this invitation, ignore this message.',
    ].join('\n'),
    secrets: [token],
  });
}
