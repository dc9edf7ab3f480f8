import type { SecondStepReset } from '@pa/contracts/mfa';
import { portalApi } from '@/lib/api/portal-api';

/** An administrator's reset of a user's second step (docs/reference/two-step-sign-in.md). */
const secondStepApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    resetSecondStep: build.mutation<SecondStepReset, string>({
      query: (id) => ({
        url: `/users/${encodeURIComponent(id)}/reset-second-step`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useResetSecondStepMutation } = secondStepApi;
