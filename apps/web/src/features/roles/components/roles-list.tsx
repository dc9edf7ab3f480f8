import { Grid3x3 } from 'lucide-react';
import { ROLES } from './role-pages';
import { ROLE_SORT_FIELDS, type Role } from '@pa/contracts/roles';
import { companyApi } from '@/lib/api/company-api';
import type { ListUrlConfig } from '@/lib/list-url';
import { roleSlice } from '@/lib/list-view-slices';
import { GatedButton } from '@/components/permission-gate';
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
import { roleDeleteBlock } from './role-rules';

export const ROLES_URL: ListUrlConfig = {
  defaultSort: [{ field: '_id', order: 'desc' }],
  sortFields: ROLE_SORT_FIELDS,
  filterKeys: ['isSystem', 'permissionId'],
};

const COLUMNS = [
  nameColumn<Role>('name', 'Name', {
    basePath: '/app/company/roles',
    className: 'max-w-56 truncate',
  }),
  clippedColumn<Role>('description', 'Description', 'max-w-80', { sortable: false }),
  systemColumn<Role>(),
  column<Role>('permissions', 'Permissions', {
    sortable: false,
    accessor: false,
    cell: (r) => r.permissionIds.length,
  }),
  column<Role>('userCount', 'Users'),
  timeColumn<Role>('updatedAt', 'Updated'),
];

export function RolesList() {
  const permissions = companyApi.endpoints.allPermissions.useQuery();
  return (
    <RecordList<Role>
      title="Roles"
      description="Groups of permissions given to users."
      record={ROLES}
      slice={roleSlice}
      urlConfig={ROLES_URL}
      endpoint={companyApi.endpoints.listRoles}
      columns={COLUMNS}
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
        ...csvFields<Role>('name', 'description', 'isSystem'),
        { header: 'permissions', value: (r) => r.permissionIds.length },
        ...csvFields<Role>('userCount', 'createdAt', 'updatedAt'),
      ]}
      rowName={(r) => r.name}
      protectedReason={(r) => roleDeleteBlock(r)?.reason ?? null}
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
