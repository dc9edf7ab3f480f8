import { z } from 'zod';
import { passwordSchema } from './accounts';
import { singleLineText } from './text';
import { userNameSchema } from './users';

/**
 * Invitations to join a company (`/api/users/invitations`, docs/reference/invitations.md), shared by
 * the web app's forms and the portal's route schemas.
 */

const optionalName = (label: string) =>
  singleLineText().trim().max(100, `The ${label} is too long`).default('');

/** `POST /api/users/invitations`. */
export const createInvitationSchema = z.object({
  email: z.email('Enter a valid email address').max(254),
  userFirstName: optionalName('first name'),
  userLastName: optionalName('last name'),
  roleIds: z.array(z.uuid('must be a list of role ids')).max(200).default([]),
});
export type CreateInvitationBody = z.input<typeof createInvitationSchema>;

/** `pending` until accepted, revoked or past `expiresAt` (then `expired`; a resend renews it). */
export const INVITATION_STATUSES = ['pending', 'expired', 'accepted', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation as every administrator's answer carries it (never its token). */
export const invitationSchema = z.object({
  _id: z.string(),
  email: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  roles: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** `_id` is null once the inviter's account was deleted; the name stays. */
  invitedBy: z.object({ _id: z.string().nullable(), userName: z.string() }),
  createdAt: z.string(),
  /** When the current link was mailed (creation or the last resend). */
  sentAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(INVITATION_STATUSES),
});
export type Invitation = z.infer<typeof invitationSchema>;

const tokenSchema = z.string().min(1, 'The invitation link is missing its token').max(1024);

/** `POST /api/users/invitations/lookup` (public): what the accept page shows before asking. */
export const invitationLookupSchema = z.object({ token: tokenSchema });

export const invitationPreviewSchema = z.object({
  email: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  companyName: z.string(),
  /** A free user name made from the email's local part. */
  suggestedUserName: z.string(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** `POST /api/users/invitations/accept` (public). */
export const acceptInvitationSchema = z.object({
  token: tokenSchema,
  userName: userNameSchema.optional(),
  password: passwordSchema,
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationSchema>;

/** The accept form: the user name is asked for (prefilled with the suggestion). */
export const acceptInvitationFormSchema = z.object({
  userName: userNameSchema,
  password: passwordSchema,
});
export type AcceptInvitationForm = z.infer<typeof acceptInvitationFormSchema>;
