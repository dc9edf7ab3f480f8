import type {
  AccountSession,
  ChangePasswordBody,
  PendingEmailChange,
  UpdateMeBody,
  UserDetails,
} from '@pa/contracts/accounts';
import { portalApi } from '@/lib/api/portal-api';

/** The account menu's calls (docs/product/services.md §4: verify, PATCH /accounts/me, change-password, sessions). */
export const accountApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    myAccount: build.query<UserDetails, void>({
      query: () => '/accounts/verify',
      providesTags: ['User'],
    }),
    updateMe: build.mutation<UserDetails, UpdateMeBody>({
      query: (body) => ({ url: '/accounts/me', method: 'PATCH', body }),
      invalidatesTags: ['User'],
    }),
    /** An email change waiting for the new address to confirm it (ADR 026). */
    pendingEmailChange: build.query<PendingEmailChange, void>({
      query: () => '/accounts/me/email-change',
      providesTags: ['User'],
    }),
    cancelEmailChange: build.mutation<PendingEmailChange, void>({
      query: () => ({ url: '/accounts/me/email-change', method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
    resendEmailChange: build.mutation<PendingEmailChange, void>({
      query: () => ({ url: '/accounts/me/email-change/resend', method: 'POST', body: {} }),
      invalidatesTags: ['User'],
    }),
    changePassword: build.mutation<unknown, ChangePasswordBody>({
      query: (body) => ({ url: '/accounts/change-password', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    mySignIns: build.query<{ items: AccountSession[] }, void>({
      query: () => '/accounts/sessions',
      providesTags: ['User'],
    }),
    endSignIn: build.mutation<{ revoked: number }, string>({
      query: (id) => ({ url: `/accounts/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
    endOtherSignIns: build.mutation<{ revoked: number }, void>({
      query: () => ({ url: '/accounts/sessions/revoke-others', method: 'POST', body: {} }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const {
  useMyAccountQuery,
  useUpdateMeMutation,
  useChangePasswordMutation,
  usePendingEmailChangeQuery,
  useCancelEmailChangeMutation,
  useResendEmailChangeMutation,
  useMySignInsQuery,
  useEndSignInMutation,
  useEndOtherSignInsMutation,
} = accountApi;
