import { useMemo } from 'react';
import { PERMISSION_SORT_FIELDS, type Permission } from '@pa/contracts/permissions';
import { companyApi } from '@/lib/api/company-api';
import type { ListUrlConfig } from '@/lib/list-url';
import { permissionSlice } from '@/lib/list-view-slices';
import {
  clippedColumn,
  column,
  csvFields,
  nameColumn,
  systemColumn,
  timeColumn,
} from '@/components/resource-list/columns';
import { RecordList } from '@/components/resource-list/resource-list';
import { SYSTEM_OPTIONS } from '@/components/resource-list/system-options';
import { PERMISSIONS } from './permission-pages';
import { permissionDeleteBlock } from './permission-rules';

export const PERMISSIONS_URL: ListUrlConfig = {
  defaultSort: [{ field: '_id', order: 'desc' }],
  sortFields: PERMISSION_SORT_FIELDS,
  filterKeys: ['group', 'isSystem'],
};

const COLUMNS = [
  nameColumn<Permission>('code', 'Code', {
    basePath: '/app/company/permissions',
    className: 'max-w-56 truncate font-mono text-xs',
  }),
  clippedColumn<Permission>('name', 'Name', 'max-w-56'),
  column<Permission>('group', 'Group', { cell: (p) => p.group || '—' }),
  systemColumn<Permission>(),
  column<Permission>('roleCount', 'Roles', { sortable: false }),
  clippedColumn<Permission>('description', 'Description', 'max-w-80', { sortable: false }),
  timeColumn<Permission>('createdAt', 'Created'),
];

export function PermissionsList() {
  const all = companyApi.endpoints.allPermissions.useQuery();
  const groups = useMemo(
    () =>
      [...new Set((all.data ?? []).map((p) => p.group))]
        .sort((a, b) => a.localeCompare(b))
        .map((g) => ({ value: g, label: g || '(no group)' }))
        .filter((g) => g.value !== ''),
    [all.data],
  );
  return (
    <RecordList<Permission>
      title="Permissions"
      description="What a role may do. System permissions are built in; add your own for your company."
      record={PERMISSIONS}
      slice={permissionSlice}
      urlConfig={PERMISSIONS_URL}
      endpoint={companyApi.endpoints.listPermissions}
      columns={COLUMNS}
      facets={[
        { key: 'group', title: 'Group', options: groups, single: true },
        { key: 'isSystem', title: 'Type', options: SYSTEM_OPTIONS, single: true },
      ]}
      csvColumns={[
        { header: 'id', value: (p) => p._id },
        ...csvFields<Permission>(
          'code',
          'name',
          'group',
          'isSystem',
          'roleCount',
          'description',
          'createdAt',
        ),
      ]}
      rowName={(p) => p.code}
      protectedReason={(p) => permissionDeleteBlock(p)?.reason ?? null}
      initialHidden={{ createdAt: false, description: false }}
      fullReset
      searchLabel="Search permissions"
    />
  );
}
