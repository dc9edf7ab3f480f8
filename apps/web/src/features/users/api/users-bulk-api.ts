import type { User } from '@pa/contracts/users';
import type { BulkUserAnswer, BulkUserChange, UserIdsAnswer } from '@pa/contracts/users-bulk';
import { portalApi } from '@/lib/api/portal-api';
import type { ListQueryArgs } from '@/lib/list-url';

const ADMIN_TAGS = ['User', 'Role', 'Permission'] as const;

/** Bulk changes, "select all N matching" and undoing a delete (docs/reference/bulk-import-palette.md). */
export const usersBulkApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    bulkUpdateUsers: build.mutation<BulkUserAnswer, BulkUserChange>({
      query: (body) => ({ url: '/users/bulk', method: 'PATCH', body }),
      invalidatesTags: [...ADMIN_TAGS],
    }),
    matchingUserIds: build.query<UserIdsAnswer, Pick<ListQueryArgs, 'search' | 'filters'>>({
      query: ({ search, filters }) => {
        const params: Record<string, string> = {};
        if (search) params.search = search;
        for (const [key, value] of Object.entries(filters ?? {}))
          params[`filters[${key}]`] = String(value);
        return { url: '/users/ids', params };
      },
    }),
    restoreUser: build.mutation<User, string>({
      query: (id) => ({ url: `/users/${id}/restore`, method: 'POST' }),
      invalidatesTags: [...ADMIN_TAGS],
    }),
  }),
});

export const { useBulkUpdateUsersMutation } = usersBulkApi;
