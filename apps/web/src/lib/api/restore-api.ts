import type { Permission } from '@pa/contracts/permissions';
import type { Role } from '@pa/contracts/roles';
import { portalApi } from './portal-api';

/** Undo after deleting a role or a permission (docs/reference/admin-screens.md, "Undo"). */
export const restoreApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    restoreRole: build.mutation<Role, string>({
      query: (id) => ({ url: `/roles/${id}/restore`, method: 'POST' }),
      invalidatesTags: ['User', 'Role', 'Permission'],
    }),
    restorePermission: build.mutation<Permission, string>({
      query: (id) => ({ url: `/permissions/${id}/restore`, method: 'POST' }),
      invalidatesTags: ['User', 'Role', 'Permission'],
    }),
  }),
});
