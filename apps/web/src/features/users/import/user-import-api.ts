import type { ImportAnswer } from '@pa/contracts/users-bulk';
import { portalApi } from '@/lib/api/portal-api';

/** `POST /api/users/import`: a dry run checks every row, an apply creates the valid ones. */
export const userImportApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    importUsers: build.mutation<ImportAnswer, { csv: string; dryRun: boolean }>({
      query: ({ csv, dryRun }) => ({
        url: '/users/import',
        method: 'POST',
        params: { dryRun: String(dryRun) },
        body: { csv },
      }),
      invalidatesTags: (_answer, _error, { dryRun }) => (dryRun ? [] : ['User', 'Role']),
    }),
  }),
});

export const { useImportUsersMutation } = userImportApi;
