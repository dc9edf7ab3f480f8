import type { UserDetails } from '@pa/contracts/accounts';
import type { AuditEvent } from '@pa/contracts/audit';
import type { Paginated } from '@pa/contracts/list-query';
import type {
  CreatePermissionBody,
  Permission,
  UpdatePermissionBody,
} from '@pa/contracts/permissions';
import type { CreateRoleBody, Role, UpdateRoleBody } from '@pa/contracts/roles';
import type { CreateUserBody, UpdateUserBody, User } from '@pa/contracts/users';
import { portalApi } from '@/lib/api/portal-api';
import type { ListQueryArgs } from '@/lib/list-url';

/**
 * The company administration calls (docs/reference/portal-api.md "Company administration API"). A change to one resource
 * can change counts shown by the others (a role's user count, a permission's role count, the
 * Administrator role gaining a new permission), so every change refreshes all three.
 */
const ALL_ADMIN_TAGS = ['User', 'Role', 'Permission'] as const;

function listParams(args: ListQueryArgs): Record<string, string | number> {
  const params: Record<string, string | number> = { page: args.page, pageSize: args.pageSize };
  if (args.search) params.search = args.search;
  if (args.sort) params.sort = args.sort;
  for (const [key, value] of Object.entries(args.filters ?? {})) params[`filters[${key}]`] = value;
  return params;
}

type PageAnswer<T> = { data: Paginated<T> } | { error: unknown };

/** Every item of a list, 100 per call (the server's largest page), for pickers and the matrix. */
async function fetchAllPages<T>(
  baseQuery: (args: { url: string; params: Record<string, string | number> }) => unknown,
  url: string,
  sort: string,
): Promise<{ data: T[] } | { error: never }> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = (await baseQuery({
      url,
      params: { page, pageSize: 100, sort },
    })) as PageAnswer<T>;
    if ('error' in answer) return { error: answer.error as never };
    items.push(...answer.data.items);
    if (page >= answer.data.totalPages) return { data: items };
  }
}

export interface StatusItem {
  value: string;
  label: string;
  description: string;
}

export const companyApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The signed-in user's details as the server sees them now: an admin change can give or take
     * this user's own permissions (a new custom permission goes into the Administrator role at once),
     * and every admin change invalidates `User`, so this is read again after each.
     */
    signedInDetails: build.query<UserDetails, void>({
      query: () => '/accounts/verify',
      providesTags: ['User'],
    }),
    listUsers: build.query<Paginated<User>, ListQueryArgs>({
      query: (args) => ({ url: '/users', params: listParams(args) }),
      providesTags: ['User'],
    }),
    getUser: build.query<User, string>({
      query: (id) => `/users/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    userStatuses: build.query<{ items: StatusItem[] }, void>({
      query: () => '/users/statuses',
    }),
    createUser: build.mutation<User, CreateUserBody>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    updateUser: build.mutation<User, { id: string; body: UpdateUserBody }>({
      query: ({ id, body }) => ({ url: `/users/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    deleteUser: build.mutation<unknown, string>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    endUserSignIns: build.mutation<{ revoked: number }, string>({
      query: (id) => ({ url: `/users/${id}/revoke-sessions`, method: 'POST', body: {} }),
    }),

    allRoles: build.query<Role[], void>({
      queryFn: (_arg, _api, _extra, baseQuery) =>
        fetchAllPages<Role>(baseQuery, '/roles', 'name:asc'),
      providesTags: ['Role'],
    }),
    allPermissions: build.query<Permission[], void>({
      queryFn: (_arg, _api, _extra, baseQuery) =>
        fetchAllPages<Permission>(baseQuery, '/permissions', 'group:asc,code:asc'),
      providesTags: ['Permission'],
    }),
    listRoles: build.query<Paginated<Role>, ListQueryArgs>({
      query: (args) => ({ url: '/roles', params: listParams(args) }),
      providesTags: ['Role'],
    }),
    getRole: build.query<Role, string>({
      query: (id) => `/roles/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Role', id }],
    }),
    createRole: build.mutation<Role, CreateRoleBody>({
      query: (body) => ({ url: '/roles', method: 'POST', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    updateRole: build.mutation<Role, { id: string; body: UpdateRoleBody }>({
      query: ({ id, body }) => ({ url: `/roles/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    deleteRole: build.mutation<unknown, string>({
      query: (id) => ({ url: `/roles/${id}`, method: 'DELETE' }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),

    listPermissions: build.query<Paginated<Permission>, ListQueryArgs>({
      query: (args) => ({ url: '/permissions', params: listParams(args) }),
      providesTags: ['Permission'],
    }),
    getPermission: build.query<Permission, string>({
      query: (id) => `/permissions/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Permission', id }],
    }),
    createPermission: build.mutation<Permission, CreatePermissionBody>({
      query: (body) => ({ url: '/permissions', method: 'POST', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    updatePermission: build.mutation<Permission, { id: string; body: UpdatePermissionBody }>({
      query: ({ id, body }) => ({ url: `/permissions/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),
    deletePermission: build.mutation<unknown, string>({
      query: (id) => ({ url: `/permissions/${id}`, method: 'DELETE' }),
      invalidatesTags: [...ALL_ADMIN_TAGS],
    }),

    // The trail changes with every write; it is read fresh whenever a screen shows it.
    listAuditEvents: build.query<Paginated<AuditEvent>, ListQueryArgs>({
      query: (args) => ({ url: '/audit-events', params: listParams(args) }),
      providesTags: [...ALL_ADMIN_TAGS],
    }),
  }),
});

export const {
  useSignedInDetailsQuery,
  useListUsersQuery,
  useEndUserSignInsMutation,
  useAllRolesQuery,
  useAllPermissionsQuery,
  useUpdateRoleMutation,
  useListAuditEventsQuery,
} = companyApi;
