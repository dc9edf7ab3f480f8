import type { AcceptInvitationBody, InvitationPreview } from '@pa/contracts/invitations';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { portalApi } from '@/lib/api/portal-api';
import type { SignInAnswer } from './auth-api';

/** The invitee's calls (public: the link's token is the proof), docs/reference/invitations.md. */
export const invitationApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    // A mutation although it reads: POST keeps the token out of URLs, and it must not be cached.
    lookupInvitation: build.mutation<InvitationPreview, { token: string }>({
      query: (body) => ({ url: '/users/invitations/lookup', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    acceptInvitation: build.mutation<SignInAnswer | MfaChallenge, AcceptInvitationBody>({
      query: (body) => ({ url: '/users/invitations/accept', method: 'POST', body }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useLookupInvitationMutation, useAcceptInvitationMutation } = invitationApi;
