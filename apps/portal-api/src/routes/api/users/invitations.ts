import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { createInvitationSchema, invitationSchema } from '@pa/contracts/invitations';
import { auditFrom } from '../../../modules/audit/record';
import {
  createInvitation,
  listOpenInvitations,
  resendInvitation,
  revokeInvitation,
  type IssuedInvitation,
} from '../../../modules/invitations/invitations';
import { authOf } from '../../../plugins/app/auth';
import { crudErrors, idParams, ok } from '../admin-schemas';
import { mailInvitation } from './invitation-mail';

/**
 * `/api/users/invitations`: an administrator invites someone by email instead of inventing their
 * password (ADR 012). Every call needs `users.create`; resending or revoking one also needs every
 * permission its roles give, as inviting does (ADR 020).
 */
export async function registerInvitationRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const guarded = { onRequest: app.requirePermission('users.create') };
  const tags = ['users'];
  const security = [{ bearerAuth: [] }];

  /** The mail goes out after the answer, like the reset mail; a failure is logged and recorded. */
  const mail = (issued: IssuedInvitation, companyName: string) =>
    app.runInBackground(
      mailInvitation(
        app,
        issued.invitation,
        issued.token,
        companyName,
        issued.addressInUse,
        issued.inviterName,
      ),
      'invitation mail',
    );

  app.get(
    '/api/users/invitations',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'The company’s open invitations (pending and expired), newest first',
        response: { 200: ok(z.object({ items: z.array(invitationSchema) })), ...crudErrors },
      },
    },
    async (request) =>
      envelope({ items: await listOpenInvitations(app.db, authOf(request).companyId) }),
  );

  app.post(
    '/api/users/invitations',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Invite someone by email (only with roles whose permissions you hold)',
        description:
          'Mails a single-use link to /auth/accept-invitation that works INVITATION_TTL seconds. 409 when a user or an open invitation of your company uses the email. An address with an account elsewhere is invited like any other (201, pending): its mail tells the recipient they already have an account, and carries no link (ADR 020).',
        body: createInvitationSchema,
        response: { 201: ok(invitationSchema), ...crudErrors },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const issued = await createInvitation(
        app.db,
        auth,
        request.body,
        app.config.INVITATION_TTL,
        auditFrom(request),
      );
      mail(issued, auth.companyName);
      reply.code(201);
      return envelope(
        issued.invitation,
        `An invitation was sent to ${issued.invitation.email}.`,
        ErrorCode.CREATED,
      );
    },
  );

  app.post(
    '/api/users/invitations/:id/resend',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Mail a new link (the previous one stops working) with a new expiry',
        params: idParams,
        response: { 200: ok(invitationSchema), ...crudErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const issued = await resendInvitation(
        app.db,
        auth,
        request.params.id,
        app.config.INVITATION_TTL,
        auditFrom(request),
      );
      mail(issued, auth.companyName);
      return envelope(
        issued.invitation,
        `The invitation was sent again to ${issued.invitation.email}.`,
      );
    },
  );

  app.delete(
    '/api/users/invitations/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary:
          'Revoke an open invitation; its link then says it was withdrawn (403 unless you hold every permission its roles give, as for resending)',
        params: idParams,
        response: { 200: ok(invitationSchema), ...crudErrors },
      },
    },
    async (request) =>
      envelope(
        await revokeInvitation(app.db, authOf(request), request.params.id, auditFrom(request)),
        'The invitation was revoked.',
      ),
  );
}
