import type {
  ForgotPasswordBody,
  ResetPasswordBody,
  SignInBody,
  UndoEmailChangeAnswer,
  UndoEmailChangeBody,
  UserDetails,
} from '@pa/contracts/accounts';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { SESSION_INVALID_MESSAGE } from '@/lib/api/base-query';
import { portalApi } from '@/lib/api/portal-api';

export interface SignInAnswer extends UserDetails {
  accessToken: string;
  refreshToken: string;
}

/** The account calls of docs/product/web.md §7 and docs/product/services.md §4. */
export const authApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** Tokens, or (two-step sign-in) the second step or enrolment that must come first. */
    signIn: build.mutation<SignInAnswer | MfaChallenge, SignInBody>({
      query: (body) => ({ url: '/accounts/sign-in', method: 'POST', body }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
    signOut: build.mutation<unknown, void>({
      query: () => ({ url: '/accounts/signout', method: 'POST', body: {} }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
    verify: build.query<UserDetails, void>({
      query: () => '/accounts/verify',
      // Seed §8: verification fails unless success and data are present.
      transformResponse: (data: UserDetails | null) => {
        if (!data) throw new Error(SESSION_INVALID_MESSAGE);
        return data;
      },
      providesTags: ['User'],
    }),
    forgotPassword: build.mutation<unknown, ForgotPasswordBody>({
      query: (body) => ({ url: '/accounts/forgot-password', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    resetPassword: build.mutation<unknown, ResetPasswordBody>({
      query: (body) => ({ url: '/accounts/reset-password', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    /** The link mailed to the new address: the email changes now (ADR 026). */
    confirmEmailChange: build.mutation<UndoEmailChangeAnswer, UndoEmailChangeBody>({
      query: (body) => ({ url: '/accounts/confirm-email-change', method: 'POST', body }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
    undoEmailChange: build.mutation<UndoEmailChangeAnswer, UndoEmailChangeBody>({
      query: (body) => ({ url: '/accounts/undo-email-change', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
  }),
});

export const {
  useSignInMutation,
  useSignOutMutation,
  useVerifyQuery,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useUndoEmailChangeMutation,
  useConfirmEmailChangeMutation,
} = authApi;
