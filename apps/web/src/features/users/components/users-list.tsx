import type { ColumnDef } from '@tanstack/react-table';
import { MailPlus, Upload } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { USER_SORT_FIELDS, USER_STATUS_LIST, type User } from '@pa/contracts/users';
import { Badge } from '@/components/ui/badge';
import { selectUserDetails, type RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import { useSelector } from 'react-redux';
import {
  companyApi,
  useAllRolesQuery,
  useDeleteUserMutation,
  useListUsersQuery,
} from '@/lib/api/company-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { RelativeTime } from '@/components/relative-time';
import { fullName } from '@/lib/format';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import { userSlice } from '@/lib/list-view-slices';
import { sortableHeader } from '@/components/data-table/data-table-column-header';
import { GatedButton } from '@/components/permission-gate';
import { ResourceList } from '@/components/resource-list/resource-list';
import { usersBulkApi, useRestoreUserMutation } from '../api/users-bulk-api';
import { StatusBadge } from './status-badge';
import { UserBulkActions } from './user-bulk-actions';

export const USERS_URL: ListUrlConfig = {
  defaultSort: [],
  sortFields: USER_SORT_FIELDS,
  filterKeys: ['status', 'roleId'],
};

export function UsersList() {
  const dispatch = useThunkDispatch();
  // Role names come with each user; the full role list (for the filter) needs roles.read.
  const canReadRoles = useMissingPermissions('roles.read').length === 0;
  const roles = useAllRolesQuery(undefined, { skip: !canReadRoles });
  const me = useSelector((s: RootStateWithAuth) => selectUserDetails({ auth: s.auth })?._id);
  const [deleteUser] = useDeleteUserMutation();
  const [restoreUser] = useRestoreUserMutation();
  const canUpdate = useMissingPermissions('users.update').length === 0;
  const columns = useMemo<ColumnDef<User>[]>(
    () => [
      {
        id: 'userName',
        accessorKey: 'userName',
        header: sortableHeader('User name'),
        cell: ({ row }) => (
          <Link
            to={`/app/company/users/${row.original._id}/read`}
            className="block max-w-40 font-medium underline-offset-4 hover:underline max-sm:truncate sm:whitespace-normal sm:wrap-anywhere"
            title={row.original.userName}
          >
            {row.original.userName}
          </Link>
        ),
        enableHiding: false,
        meta: { label: 'User name' },
      },
      {
        id: 'userFirstName',
        accessorKey: 'userFirstName',
        cell: ({ row }) => <Wrapped text={row.original.userFirstName} />,
        header: sortableHeader('First name'),
        meta: { label: 'First name' },
      },
      {
        id: 'userLastName',
        accessorKey: 'userLastName',
        cell: ({ row }) => <Wrapped text={row.original.userLastName} />,
        header: sortableHeader('Last name'),
        meta: { label: 'Last name' },
      },
      {
        id: 'email',
        accessorKey: 'email',
        header: sortableHeader('Email'),
        cell: ({ row }) => (
          <Wrapped text={row.original.email} width="min-w-36 max-w-56 2xl:max-w-72" />
        ),
        meta: { label: 'Email' },
      },
      {
        id: 'phone',
        accessorKey: 'phone',
        header: 'Phone',
        enableSorting: false,
        meta: { label: 'Phone' },
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: sortableHeader('Status'),
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
        meta: { label: 'Status' },
      },
      {
        id: 'roles',
        header: 'Roles',
        enableSorting: false,
        cell: ({ row }) => (
          <div className="flex max-w-48 flex-wrap gap-1">
            {row.original.roles.map((role) => (
              <Badge key={role._id} variant="outline" className="max-w-full">
                <span className="truncate" title={role.name}>
                  {role.name}
                </span>
              </Badge>
            ))}
          </div>
        ),
        meta: { label: 'Roles' },
      },
      {
        id: 'lastSignInAt',
        accessorKey: 'lastSignInAt',
        header: sortableHeader('Last sign-in'),
        cell: ({ row }) => <RelativeTime iso={row.original.lastSignInAt} />,
        meta: { label: 'Last sign-in' },
      },
      {
        id: 'createdAt',
        accessorKey: 'createdAt',
        header: sortableHeader('Created'),
        cell: ({ row }) => <RelativeTime iso={row.original.createdAt} />,
        meta: { label: 'Created' },
      },
    ],
    [],
  );
  return (
    <ResourceList<User>
      title="Users"
      description="People of your company, their status and roles."
      noun={['user', 'users']}
      basePath="/app/company/users"
      slice={userSlice}
      urlConfig={USERS_URL}
      useList={useListUsersQuery}
      fetchPage={(args: ListQueryArgs) =>
        dispatch(
          companyApi.endpoints.listUsers.initiate(args, { subscribe: false, forceRefetch: true }),
        ).unwrap()
      }
      columns={columns}
      facets={[
        { key: 'status', title: 'Status', options: USER_STATUS_LIST },
        ...(canReadRoles
          ? [
              {
                key: 'roleId',
                title: 'Role',
                options: (roles.data ?? []).map((r) => ({ value: r._id, label: r.name })),
              },
            ]
          : []),
      ]}
      csvColumns={[
        { header: 'id', value: (u) => u._id },
        { header: 'userName', value: (u) => u.userName },
        { header: 'userFirstName', value: (u) => u.userFirstName },
        { header: 'userLastName', value: (u) => u.userLastName },
        { header: 'email', value: (u) => u.email },
        { header: 'phone', value: (u) => u.phone },
        { header: 'status', value: (u) => u.status },
        { header: 'roles', value: (u) => u.roles.map((role) => role.name).join('; ') },
        { header: 'lastSignInAt', value: (u) => u.lastSignInAt },
        { header: 'createdAt', value: (u) => u.createdAt },
      ]}
      permissions={{
        read: 'users.read',
        create: 'users.create',
        update: 'users.update',
        delete: 'users.delete',
      }}
      rowName={(u) => `${u.userName} (${fullName(u)})`}
      protectedReason={(u) => (u._id === me ? 'You cannot delete your own account.' : null)}
      deleteOne={(id) => deleteUser(id).unwrap()}
      restoreMany={async (ids) => {
        for (const id of ids) await restoreUser(id).unwrap();
      }}
      nameById={async (id) => {
        const user = await dispatch(
          companyApi.endpoints.getUser.initiate(id, { subscribe: false }),
        ).unwrap();
        return `${user.userName} (${fullName(user)})`;
      }}
      fetchMatchingIds={(query) =>
        dispatch(
          usersBulkApi.endpoints.matchingUserIds.initiate(
            { search: query.search, filters: query.filters },
            { subscribe: false, forceRefetch: true },
          ),
        ).unwrap()
      }
      bulkActions={
        canUpdate
          ? (selection) => (
              <UserBulkActions
                selection={selection}
                roles={(roles.data ?? []).map((r) => ({ value: r._id, label: r.name }))}
              />
            )
          : undefined
      }
      fullReset
      headerActions={
        <>
          <GatedButton
            need="users.create"
            to="/app/company/users/invite"
            variant="outline"
            hideWhenMissing
          >
            <MailPlus aria-hidden="true" /> Invite user
          </GatedButton>
          <GatedButton
            need="users.create"
            to="/app/company/users/import"
            variant="outline"
            hideWhenMissing
          >
            <Upload aria-hidden="true" /> Import users
          </GatedButton>
        </>
      }
      initialHidden={{ phone: false, createdAt: false }}
      searchLabel="Search users"
    />
  );
}

/**
 * Long names and emails wrap within a width instead of being cut, so the table fits its area at
 * 1280 px with Status, Roles and Last sign-in on screen and every email readable in full. On a phone
 * the table scrolls sideways and they stay on one line.
 */
function Wrapped({ text, width = 'max-w-36 2xl:max-w-48' }: { text: string; width?: string }) {
  return (
    <span
      className={`block max-sm:truncate sm:whitespace-normal sm:wrap-anywhere ${width}`}
      title={text}
    >
      {text || '—'}
    </span>
  );
}
