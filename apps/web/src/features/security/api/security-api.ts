import type { MfaCoverage, MfaPolicy } from '@pa/contracts/mfa';
import { portalApi } from '@/lib/api/portal-api';

/** The company's two-step policy (docs/reference/two-step-sign-in.md). */
export const securityApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    mfaPolicy: build.query<MfaPolicy, void>({
      query: () => '/security/mfa-policy',
      providesTags: ['Permission'],
    }),
    saveMfaPolicy: build.mutation<MfaPolicy, MfaPolicy>({
      query: (body) => ({ url: '/security/mfa-policy', method: 'PUT', body }),
      invalidatesTags: ['Permission'],
    }),
    /** Who a policy (saved or not) reaches: who has a second step, who would set one up. */
    mfaPolicyCoverage: build.query<MfaCoverage, MfaPolicy>({
      query: ({ requireFor, permissionCodes }) => ({
        url: '/security/mfa-policy/coverage',
        params: { requireFor, permissionCodes: permissionCodes.join(',') },
      }),
      // A reset of someone's second step invalidates User; a saved policy, Permission.
      providesTags: ['Permission', 'User'],
    }),
    policyPermissions: build.query<{ code: string; name: string }[], void>({
      query: () => ({ url: '/permissions', params: { page: 1, pageSize: 100, sort: 'code:asc' } }),
      transformResponse: (data: { items: { code: string; name: string }[] }) => data.items,
      providesTags: ['Permission'],
    }),
  }),
});

export const {
  useMfaPolicyQuery,
  useSaveMfaPolicyMutation,
  usePolicyPermissionsQuery,
  useMfaPolicyCoverageQuery,
} = securityApi;
