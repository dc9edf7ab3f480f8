import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  acceptInvitationSchema,
  invitationLookupSchema,
  invitationPreviewSchema,
} from '@pa/contracts/invitations';
import { errorEnvelopeSchema, ok as envelope } from '@pa/contracts/envelope';
import { acceptInvitation, previewInvitation } from '../../../modules/invitations/accept';
import { clientInfo } from '../../../modules/client-info';
import { z } from 'zod';
import { mfaChallengeSchema } from '@pa/contracts/mfa';
import { errors, ok, signedInSchema } from '../accounts/schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';
import { finishSignIn, nextStepAfterPassword } from '../../../modules/sign-in/steps';

const deadLink = {
  404: errorEnvelopeSchema.describe(
    '`INVITATION_NOT_FOUND`: unknown link, or replaced by a resend',
  ),
  410: errorEnvelopeSchema.describe(
    '`INVITATION_USED`, `INVITATION_EXPIRED` or `INVITATION_REVOKED`: the link no longer works',
  ),
} as const;

/** The invitee's calls (public: the token is the proof), used by /auth/accept-invitation. */
export async function registerAcceptInvitationRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  app.post(
    '/api/users/invitations/lookup',
    {
      schema: {
        tags,
        summary: 'What an invitation link is for (email, names, company, a free user name)',
        description: 'POST so the token stays out of URLs and access logs.',
        body: invitationLookupSchema,
        response: { 200: ok(invitationPreviewSchema), 400: errors[400], ...deadLink },
      },
    },
    async (request) => envelope(await previewInvitation(app.db, request.body.token)),
  );

  app.post(
    '/api/users/invitations/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invitation: creates the account and signs it in',
        description:
          'Creates the active user the invitation describes (email, names, roles) with this user name (default: a free one made from the email) and password, consumes the link, and answers exactly as sign-in does (tokens, refresh cookie; or, when the company requires a second step, the enrolment challenge a sign-in would answer). Nothing is created on any refusal; a taken user name is 409.',
        body: acceptInvitationSchema,
        response: {
          200: ok(z.union([signedInSchema, mfaChallengeSchema])),
          400: errors[400],
          ...deadLink,
          409: errorEnvelopeSchema.describe('The user name (or the email) is taken'),
        },
      },
    },
    async (request, reply) => {
      const user = await acceptInvitation(app.db, request.body, clientInfo(request));
      // the company's second-step policy applies to an invitee as to any sign-in
      const next = await nextStepAfterPassword(app, user, null);
      if (next) return envelope(next, 'Set up your second step.');
      return envelope(
        await finishSignIn(app, guard, request, reply, user, null, ['pwd']),
        'Signed in.',
      );
    },
  );
}
