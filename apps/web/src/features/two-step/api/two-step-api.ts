import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { UserDetails } from '@pa/contracts/accounts';
import type { MfaStatus } from '@pa/contracts/mfa';
import { portalApi } from '@/lib/api/portal-api';

/** What a completed sign-in answers. */
export interface SignedIn extends UserDetails {
  accessToken: string;
  refreshToken: string;
}

/** Signed in: the current password; in a forced enrolment: its `mfaToken`. */
export type SetUpProof = { currentPassword: string } | { mfaToken: string };

interface SecondStepBody {
  mfaToken: string;
  code?: string;
  recoveryCode?: string;
  passkey?: unknown;
}

/** Two-step sign-in calls (docs/reference/two-step-sign-in.md). */
export const twoStepApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    secondStep: build.mutation<SignedIn, SecondStepBody>({
      query: (body) => ({ url: '/accounts/sign-in/mfa', method: 'POST', body }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
    secondStepPasskeyOptions: build.mutation<PublicKeyCredentialRequestOptionsJSON, string>({
      query: (mfaToken) => ({
        url: '/accounts/sign-in/mfa/passkey-options',
        method: 'POST',
        body: { mfaToken },
      }),
      extraOptions: { skipAuth: true },
    }),
    passkeySignInOptions: build.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
      query: () => ({ url: '/accounts/sign-in/passkey/options', method: 'POST' }),
      extraOptions: { skipAuth: true },
    }),
    passkeySignIn: build.mutation<SignedIn, { response: unknown }>({
      query: (body) => ({ url: '/accounts/sign-in/passkey', method: 'POST', body }),
      extraOptions: { skipAuth: true },
      invalidatesTags: ['User'],
    }),
    mfaStatus: build.query<MfaStatus, void>({
      query: () => '/accounts/mfa',
      providesTags: ['User'],
    }),
    totpSetup: build.mutation<{ secret: string; otpauthUrl: string }, SetUpProof>({
      query: (body) => ({ url: '/accounts/mfa/totp/setup', method: 'POST', body }),
    }),
    totpConfirm: build.mutation<
      { recoveryCodes: string[]; signIn: SignedIn | null },
      { code: string; mfaToken?: string }
    >({
      query: (body) => ({ url: '/accounts/mfa/totp/confirm', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    renewRecoveryCodes: build.mutation<
      { recoveryCodes: string[] },
      { currentPassword: string; code: string }
    >({
      query: (body) => ({ url: '/accounts/mfa/recovery-codes', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    totpDisable: build.mutation<unknown, { currentPassword: string; code: string }>({
      query: (body) => ({ url: '/accounts/mfa/totp/disable', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    passkeyOptions: build.mutation<PublicKeyCredentialCreationOptionsJSON, SetUpProof>({
      query: (body) => ({ url: '/accounts/passkeys/options', method: 'POST', body }),
    }),
    addPasskey: build.mutation<
      { passkey: { _id: string }; signIn: SignedIn | null },
      { name: string; response: unknown; mfaToken?: string }
    >({
      query: (body) => ({ url: '/accounts/passkeys', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    renamePasskey: build.mutation<unknown, { id: string; name: string }>({
      query: ({ id, name }) => ({
        url: `/accounts/passkeys/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { name },
      }),
      invalidatesTags: ['User'],
    }),
    removePasskey: build.mutation<unknown, string>({
      query: (id) => ({ url: `/accounts/passkeys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const {
  useSecondStepMutation,
  useSecondStepPasskeyOptionsMutation,
  usePasskeySignInOptionsMutation,
  usePasskeySignInMutation,
  useMfaStatusQuery,
  useTotpSetupMutation,
  useTotpConfirmMutation,
  useTotpDisableMutation,
  useRenewRecoveryCodesMutation,
  usePasskeyOptionsMutation,
  useAddPasskeyMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
} = twoStepApi;
