import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { PERMISSION_SORT_FIELDS, type Permission } from '@pa/contracts/permissions';
import { Badge } from '@/components/ui/badge';
import {
  companyApi,
  useAllPermissionsQuery,
  useDeletePermissionMutation,
  useListPermissionsQuery,
} from '@/lib/api/company-api';
import { useRestorePermissionMutation } from '@/lib/api/restore-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { RelativeTime } from '@/components/relative-time';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import { permissionSlice } from '@/lib/list-view-slices';
import { sortableHeader } from '@/components/data-table/data-table-column-header';
import { ResourceList } from '@/components/resource-list/resource-list';
import { SYSTEM_OPTIONS } from '@/components/resource-list/system-options';
import { permissionDeleteBlock } from './permission-rules';

export const PERMISSIONS_URL: ListUrlConfig = {
  defaultSort: [{ field: '_id', order: 'desc' }],
  sortFields: PERMISSION_SORT_FIELDS,
  filterKeys: ['group', 'isSystem'],
};

export function PermissionsList() {
  const dispatch = useThunkDispatch();
  const all = useAllPermissionsQuery();
  const [deletePermission] = useDeletePermissionMutation();
  const [restore] = useRestorePermissionMutation();
  const canRestore = useMissingPermissions('permissions.create').length === 0;
  const groups = useMemo(
    () =>
      [...new Set((all.data ?? []).map((p) => p.group))]
        .sort((a, b) => a.localeCompare(b))
        .map((g) => ({ value: g, label: g || '(no group)' }))
        .filter((g) => g.value !== ''),
    [all.data],
  );
  const columns = useMemo<ColumnDef<Permission>[]>(
    () => [
      {
        id: 'code',
        accessorKey: 'code',
        header: sortableHeader('Code'),
        cell: ({ row }) => (
          <Link
            to={`/app/company/permissions/${row.original._id}/read`}
            className="block max-w-56 truncate font-mono text-xs font-medium underline-offset-4 hover:underline"
          >
            {row.original.code}
          </Link>
        ),
        enableHiding: false,
        meta: { label: 'Code' },
      },
      {
        id: 'name',
        accessorKey: 'name',
        header: sortableHeader('Name'),
        cell: ({ row }) => (
          <span className="block max-w-56 truncate" title={row.original.name}>
            {row.original.name}
          </span>
        ),
        meta: { label: 'Name' },
      },
      {
        id: 'group',
        accessorKey: 'group',
        header: sortableHeader('Group'),
        cell: ({ row }) => row.original.group || '—',
        meta: { label: 'Group' },
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
        id: 'roleCount',
        accessorKey: 'roleCount',
        header: 'Roles',
        enableSorting: false,
        meta: { label: 'Roles' },
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
    <ResourceList<Permission>
      title="Permissions"
      description="What a role may do. System permissions are built in; add your own for your company."
      noun={['permission', 'permissions']}
      basePath="/app/company/permissions"
      slice={permissionSlice}
      urlConfig={PERMISSIONS_URL}
      useList={useListPermissionsQuery}
      fetchPage={(args: ListQueryArgs) =>
        dispatch(
          companyApi.endpoints.listPermissions.initiate(args, {
            subscribe: false,
            forceRefetch: true,
          }),
        ).unwrap()
      }
      columns={columns}
      facets={[
        { key: 'group', title: 'Group', options: groups, single: true },
        { key: 'isSystem', title: 'Type', options: SYSTEM_OPTIONS, single: true },
      ]}
      csvColumns={[
        { header: 'id', value: (p) => p._id },
        { header: 'code', value: (p) => p.code },
        { header: 'name', value: (p) => p.name },
        { header: 'group', value: (p) => p.group },
        { header: 'isSystem', value: (p) => p.isSystem },
        { header: 'roleCount', value: (p) => p.roleCount },
        { header: 'description', value: (p) => p.description },
        { header: 'createdAt', value: (p) => p.createdAt },
      ]}
      permissions={{
        read: 'permissions.read',
        create: 'permissions.create',
        update: 'permissions.update',
        delete: 'permissions.delete',
      }}
      rowName={(p) => p.code}
      protectedReason={(p) => permissionDeleteBlock(p)?.reason ?? null}
      deleteOne={(id) => deletePermission(id).unwrap()}
      restoreMany={
        canRestore
          ? async (ids) => {
              for (const id of ids) await restore(id).unwrap();
            }
          : undefined
      }
      initialHidden={{ createdAt: false, description: false }}
      fullReset
      searchLabel="Search permissions"
    />
  );
}
