import type { CreateInvitationBody, Invitation } from '@pa/contracts/invitations';
import { portalApi } from '@/lib/api/portal-api';

/**
 * The administrator's invitation calls and the administrator-sent reset link
 * (docs/reference/invitations.md). Open invitations are cached under one `User` tag id, so any
 * user change (an accepted invitation shows up as a new user) reads them again too.
 */
const OPEN_INVITATIONS = { type: 'User', id: 'OPEN_INVITATIONS' } as const;

export const invitationsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    listInvitations: build.query<Invitation[], void>({
      query: () => '/users/invitations',
      transformResponse: (data: { items: Invitation[] }) => data.items,
      providesTags: [OPEN_INVITATIONS],
    }),
    createInvitation: build.mutation<Invitation, CreateInvitationBody>({
      query: (body) => ({ url: '/users/invitations', method: 'POST', body }),
      invalidatesTags: [OPEN_INVITATIONS],
    }),
    resendInvitation: build.mutation<Invitation, string>({
      query: (id) => ({ url: `/users/invitations/${id}/resend`, method: 'POST' }),
      invalidatesTags: [OPEN_INVITATIONS],
    }),
    revokeInvitation: build.mutation<Invitation, string>({
      query: (id) => ({ url: `/users/invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: [OPEN_INVITATIONS],
    }),
    sendPasswordReset: build.mutation<null, string>({
      query: (id) => ({ url: `/users/${id}/password-reset`, method: 'POST' }),
    }),
  }),
});

export const {
  useListInvitationsQuery,
  useCreateInvitationMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useSendPasswordResetMutation,
} = invitationsApi;
