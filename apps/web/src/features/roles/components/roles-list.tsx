import type { ColumnDef } from '@tanstack/react-table';
import { Grid3x3 } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ROLE_SORT_FIELDS, type Role } from '@pa/contracts/roles';
import { Badge } from '@/components/ui/badge';
import {
  companyApi,
  useAllPermissionsQuery,
  useDeleteRoleMutation,
  useListRolesQuery,
} from '@/lib/api/company-api';
import { useRestoreRoleMutation } from '@/lib/api/restore-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { RelativeTime } from '@/components/relative-time';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import { roleSlice } from '@/lib/list-view-slices';
import { sortableHeader } from '@/components/data-table/data-table-column-header';
import { GatedButton } from '@/components/permission-gate';
import { ResourceList } from '@/components/resource-list/resource-list';
import { SYSTEM_OPTIONS } from '@/components/resource-list/system-options';
import { roleDeleteBlock } from './role-rules';

export const ROLES_URL: ListUrlConfig = {
  defaultSort: [{ field: '_id', order: 'desc' }],
  sortFields: ROLE_SORT_FIELDS,
  filterKeys: ['isSystem', 'permissionId'],
};

export function RolesList() {
  const dispatch = useThunkDispatch();
  const permissions = useAllPermissionsQuery();
  const [deleteRole] = useDeleteRoleMutation();
  const [restore] = useRestoreRoleMutation();
  const canRestore = useMissingPermissions('roles.create').length === 0;
  const columns = useMemo<ColumnDef<Role>[]>(
    () => [
      {
        id: 'name',
        accessorKey: 'name',
        header: sortableHeader('Name'),
        cell: ({ row }) => (
          <Link
            to={`/app/company/roles/${row.original._id}/read`}
            className="block max-w-56 truncate font-medium underline-offset-4 hover:underline"
          >
            {row.original.name}
          </Link>
        ),
        enableHiding: false,
        meta: { label: 'Name' },
      },
      {
        id: 'description',
        accessorKey: 'description',
        header: 'Description',
        enableSorting: false,
        cell: ({ row }) => (
          <span className="block max-w-80 truncate" title={row.original.description}>
            {row.original.description || '—'}
          </span>
        ),
        meta: { label: 'Description' },
      },
      {
        id: 'isSystem',
        accessorKey: 'isSystem',
        header: sortableHeader('Type'),
        cell: ({ row }) =>
          row.original.isSystem ? <Badge>System</Badge> : <Badge variant="outline">Custom</Badge>,
        meta: { label: 'Type' },
      },
      {
        id: 'permissions',
        header: 'Permissions',
        enableSorting: false,
        cell: ({ row }) => row.original.permissionIds.length,
        meta: { label: 'Permissions' },
      },
      {
        id: 'userCount',
        accessorKey: 'userCount',
        header: sortableHeader('Users'),
        meta: { label: 'Users' },
      },
      {
        id: 'updatedAt',
        accessorKey: 'updatedAt',
        header: sortableHeader('Updated'),
        cell: ({ row }) => <RelativeTime iso={row.original.updatedAt} />,
        meta: { label: 'Updated' },
      },
    ],
    [],
  );
  return (
    <ResourceList<Role>
      title="Roles"
      description="Groups of permissions given to users."
      noun={['role', 'roles']}
      basePath="/app/company/roles"
      slice={roleSlice}
      urlConfig={ROLES_URL}
      useList={useListRolesQuery}
      fetchPage={(args: ListQueryArgs) =>
        dispatch(
          companyApi.endpoints.listRoles.initiate(args, { subscribe: false, forceRefetch: true }),
        ).unwrap()
      }
      columns={columns}
      facets={[
        { key: 'isSystem', title: 'Type', options: SYSTEM_OPTIONS, single: true },
        {
          key: 'permissionId',
          title: 'Holds permission',
          single: true,
          options: (permissions.data ?? []).map((p) => ({ value: p._id, label: p.code })),
        },
      ]}
      csvColumns={[
        { header: 'id', value: (r) => r._id },
        { header: 'name', value: (r) => r.name },
        { header: 'description', value: (r) => r.description },
        { header: 'isSystem', value: (r) => r.isSystem },
        { header: 'permissions', value: (r) => r.permissionIds.length },
        { header: 'userCount', value: (r) => r.userCount },
        { header: 'createdAt', value: (r) => r.createdAt },
        { header: 'updatedAt', value: (r) => r.updatedAt },
      ]}
      permissions={{
        read: 'roles.read',
        create: 'roles.create',
        update: 'roles.update',
        delete: 'roles.delete',
      }}
      rowName={(r) => r.name}
      protectedReason={(r) => roleDeleteBlock(r)?.reason ?? null}
      deleteOne={(id) => deleteRole(id).unwrap()}
      restoreMany={
        canRestore
          ? async (ids) => {
              for (const id of ids) await restore(id).unwrap();
            }
          : undefined
      }
      headerActions={
        <GatedButton need="roles.read" to="/app/company/roles/matrix" variant="outline">
          <Grid3x3 aria-hidden="true" /> Permission matrix
        </GatedButton>
      }
      fullReset
      searchLabel="Search roles"
    />
  );
}
