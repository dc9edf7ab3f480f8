import type * as React from 'react';
import { useMemo } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import type { User } from '@pa/contracts/users';
import { Badge } from '@/components/ui/badge';
import { selectUserDetails, type RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import { companyApi } from '@/lib/api/company-api';
import { formatDateTime, fullName } from '@/lib/format';
import { usePermissionChoices } from '@/components/record/permission-choices';
import {
  needsOf,
  type RecordDefinition,
  type RecordFormDefinition,
} from '@/components/record/record-definition';
import { RecordDetails } from '@/components/record/record-details';
import { recordPages } from '@/components/record/record-scaffold';
import { usersBulkApi } from '../api/users-bulk-api';
import { ResetSecondStepButton } from './reset-second-step-button';
import { EndSignInsButton, SendResetLinkButton } from './user-actions';
import {
  createFormSchema,
  editFormSchema,
  UserFields,
  type UserChoices,
  type UserForm,
} from './user-fields';
import { StatusBadge } from './status-badge';

const useMyId = () =>
  useSelector((s: RootStateWithAuth) => selectUserDetails({ auth: s.auth })?._id);

/** The user form's lists: the roles (with roles.read) and the permissions (with permissions.read). */
function useUserChoices() {
  const permissions = usePermissionChoices();
  const canReadRoles = permissions.held.has('roles.read');
  const roles = companyApi.endpoints.allRoles.useQuery(undefined, { skip: !canReadRoles });
  const { data } = roles;
  const roleName = useMemo(() => new Map((data ?? []).map((r) => [r._id, r.name])), [data]);
  const context: UserChoices = {
    ...permissions,
    roles: data ?? [],
    roleName,
    canReadRoles,
    me: useMyId(),
  };
  return {
    lists: [roles, permissions.query],
    what: 'the roles and permissions to choose from',
    context,
  };
}

type UserFormDefinition = RecordFormDefinition<User, UserForm, UserChoices>;

export const USERS: RecordDefinition<User, UserForm, UserChoices> = {
  noun: 'user',
  plural: 'users',
  listPath: '/app/company/users',
  need: needsOf('users'),
  useQuery: companyApi.endpoints.getUser.useQuery,
  nameOf: (user) => user.userName,
  form: {
    schema: (record) => (record ? editFormSchema : createFormSchema),
    empty: {
      userName: '',
      email: '',
      userFirstName: '',
      userLastName: '',
      phone: '',
      status: 'active',
      password: '',
      roleIds: [],
      permissionIds: [],
    },
    toValues: (u) => ({
      userName: u.userName,
      email: u.email,
      userFirstName: u.userFirstName,
      userLastName: u.userLastName,
      phone: u.phone,
      status: u.status,
      roleIds: [...u.roleIds],
      permissionIds: [...u.permissionIds],
    }),
    labels: {
      userName: 'User name',
      email: 'Email',
      userFirstName: 'First name',
      userLastName: 'Last name',
      phone: 'Phone',
      status: 'Status',
      roleIds: 'Roles',
      permissionIds: 'Direct permissions',
    },
    description: () => 'You can give only roles and permissions you hold yourself.',
    className: 'max-w-4xl',
    // Only the create form sends a password: its values are a CreateForm.
    useCreate: companyApi.endpoints.createUser.useMutation as UserFormDefinition['useCreate'],
    useUpdate: companyApi.endpoints.updateUser.useMutation,
    endpoint: companyApi.endpoints.getUser,
    conflictField: (message) =>
      /user name/i.test(message) ? 'userName' : /email/i.test(message) ? 'email' : undefined,
    useChoices: useUserChoices,
    format:
      ({ roleName, codeOf }) =>
      (field, value) =>
        Array.isArray(value)
          ? value
              .map((id: string) =>
                field === 'roleIds' ? (roleName.get(id) ?? id) : (codeOf.get(id) ?? id),
              )
              .join(', ') || '—'
          : value === '' || value == null
            ? '—'
            : String(value),
    Fields: UserFields,
  },
  useRemove: companyApi.endpoints.deleteUser.useMutation,
  useRestore: usersBulkApi.endpoints.restoreUser.useMutation,
  restoreNeed: null,
  useDeleteWording: () => {
    const me = useMyId();
    return (user) => ({
      what: [
        `The account of ${fullName(user)} (${user.email}).`,
        'Every device where they are signed in is signed out at once.',
        'Their past actions stay in the audit trail.',
      ],
      block:
        user._id === me
          ? { reason: 'You cannot delete your own account. Ask another administrator to do it.' }
          : null,
    });
  },
};

const pages = recordPages(USERS);

export function UserView({ id }: { id: string }) {
  const permissions = usePermissionChoices();
  const canReadRoles = permissions.held.has('roles.read');
  const me = useMyId();
  return (
    <pages.View id={id}>
      {(user) => (
        <RecordDetails
          resource={USERS}
          record={user}
          title={fullName(user) || user.userName}
          description={`@${user.userName}`}
          actionsLabel="User actions"
          actions={
            <>
              <SendResetLinkButton user={user} />
              {user._id === me ? null : (
                <ResetSecondStepButton userId={user._id} userName={user.userName} />
              )}
              <EndSignInsButton user={user} self={user._id === me} />
            </>
          }
          rows={[
            ['User name', user.userName],
            ['First name', user.userFirstName],
            ['Last name', user.userLastName],
            ['Email', user.email],
            ['Phone', user.phone],
            ['Status', <StatusBadge status={user.status} />],
            ['Roles', <UserRoleBadges user={user} linked={canReadRoles} />],
            [
              'Direct permissions',
              !permissions.canRead && user.permissionIds.length ? (
                `${user.permissionIds.length} (their names need the permissions.read permission)`
              ) : (
                <Badges
                  items={permissions.all
                    .filter((p) => user.permissionIds.includes(p._id))
                    .map((p) => ({ _id: p._id, name: p.code }))}
                  className="font-mono"
                />
              ),
            ],
            ['Last sign-in', formatDateTime(user.lastSignInAt)],
          ]}
        />
      )}
    </pages.View>
  );
}

/** The user's roles, each a link to its page for those who may read roles. */
function UserRoleBadges({ user, linked }: { user: User; linked: boolean }) {
  if (!linked) return <Badges items={user.roles} variant="outline" />;
  return (
    <Badges
      items={user.roles}
      variant="outline"
      link={(r) => <Link to={`/app/company/roles/${r._id}/read`}>{r.name}</Link>}
    />
  );
}

/** Named things as badges, or "None". */
function Badges({
  items,
  variant = 'secondary',
  className,
  link,
}: {
  items: readonly { _id: string; name: string }[];
  variant?: 'outline' | 'secondary';
  className?: string;
  link?: (item: { _id: string; name: string }) => React.ReactNode;
}) {
  if (!items.length) return 'None';
  return (
    <span className="flex flex-wrap gap-1">
      {items.map((item) =>
        link ? (
          <Badge key={item._id} variant={variant} className={className} asChild>
            {link(item)}
          </Badge>
        ) : (
          <Badge key={item._id} variant={variant} className={className}>
            {item.name}
          </Badge>
        ),
      )}
    </span>
  );
}

export const { Create: UserCreate, Edit: UserEdit, Delete: UserDelete } = pages;
