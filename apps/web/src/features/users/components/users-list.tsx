import { MailPlus, Upload } from 'lucide-react';
import { useSelector } from 'react-redux';
import { USER_SORT_FIELDS, USER_STATUS_LIST, type User } from '@pa/contracts/users';
import { Badge } from '@/components/ui/badge';
import { selectUserDetails, type RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import { companyApi } from '@/lib/api/company-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { fullName } from '@/lib/format';
import type { ListUrlConfig } from '@/lib/list-url';
import { userSlice } from '@/lib/list-view-slices';
import { GatedButton } from '@/components/permission-gate';
import { column, csvFields, nameColumn, timeColumn } from '@/components/resource-list/columns';
import { RecordList } from '@/components/resource-list/resource-list';
import { usersBulkApi } from '../api/users-bulk-api';
import { USERS } from './user-pages';
import { StatusBadge } from './status-badge';
import { UserBulkActions } from './user-bulk-actions';

export const USERS_URL: ListUrlConfig = {
  defaultSort: [],
  sortFields: USER_SORT_FIELDS,
  filterKeys: ['status', 'roleId'],
};

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

const COLUMNS = [
  nameColumn<User>('userName', 'User name', {
    basePath: '/app/company/users',
    className: 'max-w-40 max-sm:truncate sm:whitespace-normal sm:wrap-anywhere',
    titled: true,
  }),
  column<User>('userFirstName', 'First name', {
    cell: (u) => <Wrapped text={u.userFirstName} />,
  }),
  column<User>('userLastName', 'Last name', { cell: (u) => <Wrapped text={u.userLastName} /> }),
  column<User>('email', 'Email', {
    cell: (u) => <Wrapped text={u.email} width="min-w-36 max-w-56 2xl:max-w-72" />,
  }),
  column<User>('phone', 'Phone', { sortable: false }),
  column<User>('status', 'Status', { cell: (u) => <StatusBadge status={u.status} /> }),
  column<User>('roles', 'Roles', {
    sortable: false,
    accessor: false,
    cell: (u) => (
      <div className="flex max-w-48 flex-wrap gap-1">
        {u.roles.map((role) => (
          <Badge key={role._id} variant="outline" className="max-w-full">
            <span className="truncate" title={role.name}>
              {role.name}
            </span>
          </Badge>
        ))}
      </div>
    ),
  }),
  timeColumn<User>('lastSignInAt', 'Last sign-in'),
  timeColumn<User>('createdAt', 'Created'),
];

/** Beside "Create user", for those who may create users. */
const HEADER_ACTIONS = [
  { to: 'invite', Icon: MailPlus, label: 'Invite user' },
  { to: 'import', Icon: Upload, label: 'Import users' },
].map(({ to, Icon, label }) => (
  <GatedButton
    key={to}
    need="users.create"
    to={`/app/company/users/${to}`}
    variant="outline"
    hideWhenMissing
  >
    <Icon aria-hidden="true" /> {label}
  </GatedButton>
));

const nameOf = (u: User) => `${u.userName} (${fullName(u)})`;

export function UsersList() {
  const dispatch = useThunkDispatch();
  // Role names come with each user; the full role list (for the filter) needs roles.read.
  const canReadRoles = useMissingPermissions('roles.read').length === 0;
  const roles = companyApi.endpoints.allRoles.useQuery(undefined, { skip: !canReadRoles });
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r._id, label: r.name }));
  const me = useSelector((s: RootStateWithAuth) => selectUserDetails({ auth: s.auth })?._id);
  const canUpdate = useMissingPermissions('users.update').length === 0;
  return (
    <RecordList<User>
      title="Users"
      description="People of your company, their status and roles."
      record={USERS}
      slice={userSlice}
      urlConfig={USERS_URL}
      endpoint={companyApi.endpoints.listUsers}
      columns={COLUMNS}
      facets={[
        { key: 'status', title: 'Status', options: USER_STATUS_LIST },
        ...(canReadRoles ? [{ key: 'roleId', title: 'Role', options: roleOptions }] : []),
      ]}
      csvColumns={[
        { header: 'id', value: (u) => u._id },
        ...csvFields<User>('userName', 'userFirstName', 'userLastName', 'email', 'phone', 'status'),
        { header: 'roles', value: (u) => u.roles.map((role) => role.name).join('; ') },
        ...csvFields<User>('lastSignInAt', 'createdAt'),
      ]}
      rowName={nameOf}
      protectedReason={(u) => (u._id === me ? 'You cannot delete your own account.' : null)}
      nameById={async (id) =>
        nameOf(
          await dispatch(companyApi.endpoints.getUser.initiate(id, { subscribe: false })).unwrap(),
        )
      }
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
          ? (selection) => <UserBulkActions selection={selection} roles={roleOptions} />
          : undefined
      }
      fullReset
      headerActions={HEADER_ACTIONS}
      initialHidden={{ phone: false, createdAt: false }}
      searchLabel="Search users"
    />
  );
}
