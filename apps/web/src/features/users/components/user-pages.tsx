import { zodResolver } from '@hookform/resolvers/zod';
import { LogOut, Pencil, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Controller, useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { type z } from 'zod';
import { createUserSchema, USER_STATUS_LIST, type User } from '@pa/contracts/users';
import { PageTitle } from '@/components/page-title';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { selectUserDetails, type RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import {
  companyApi,
  useAllPermissionsQuery,
  useAllRolesQuery,
  useCreateUserMutation,
  useDeleteUserMutation,
  useGetUserQuery,
  useEndUserSignInsMutation,
  useUpdateUserMutation,
} from '@/lib/api/company-api';
import { useHeldPermissions } from '@/hooks/use-held-permissions';
import { useRecordEditor } from '@/hooks/use-record-editor';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { formatDateTime, fullName } from '@/lib/format';
import { RecentEvents } from '@/components/audit/recent-events';
import { PageHeader } from '@/components/page-header';
import { GatedButton } from '@/components/permission-gate';
import { PermissionPicker } from '@/components/permission-picker';
import { useRestoreUserMutation } from '../api/users-bulk-api';
import { DetailList } from '@/components/record/detail-list';
import { Field } from '@/components/record/field';
import { RecordFormActions } from '@/components/record/form-actions';
import { ChoicesLoaded, NeedToChoose } from '@/components/record/form-choices';
import { LeaveGuard } from '@/components/record/leave-guard';
import {
  RecordCreatePage,
  RecordDeletePage,
  RecordEditPage,
  RecordViewPage,
  type RecordResource,
} from '@/components/record/record-scaffold';
import { StaleEditDialog } from '@/components/record/stale-edit-dialog';
import { ResetSecondStepButton } from './reset-second-step-button';
import { RoleChoices, roleGiveLock } from './role-choices';
import { SendResetLinkButton } from './send-reset-link-button';
import { StatusBadge } from './status-badge';

const LIST = '/app/company/users';
const viewPath = (id: string) => `${LIST}/${id}/read`;

const createFormSchema = createUserSchema.required();
const editFormSchema = createUserSchema.omit({ password: true }).required();
type CreateForm = z.infer<typeof createFormSchema>;
type EditForm = z.infer<typeof editFormSchema>;
type UserForm = CreateForm | EditForm;
const LABELS = {
  userName: 'User name',
  email: 'Email',
  userFirstName: 'First name',
  userLastName: 'Last name',
  phone: 'Phone',
  status: 'Status',
  roleIds: 'Roles',
  permissionIds: 'Direct permissions',
};
const toValues = (u: User): EditForm => ({
  userName: u.userName,
  email: u.email,
  userFirstName: u.userFirstName,
  userLastName: u.userLastName,
  phone: u.phone,
  status: u.status,
  roleIds: [...u.roleIds],
  permissionIds: [...u.permissionIds],
});

const useMyId = () =>
  useSelector((s: RootStateWithAuth) => selectUserDetails({ auth: s.auth })?._id);

const USERS: RecordResource<User> = {
  noun: 'user',
  plural: 'users',
  listPath: LIST,
  need: {
    read: 'users.read',
    create: 'users.create',
    update: 'users.update',
    delete: 'users.delete',
  },
  useQuery: useGetUserQuery,
  nameOf: (user) => user.userName,
};

/** What this user may read besides users: role pages and the permission list. */
function useReadable() {
  const held = useHeldPermissions();
  return { roles: held.includes('roles.read'), permissions: held.includes('permissions.read') };
}

export function UserView({ id }: { id: string }) {
  const can = useReadable();
  const permissions = useAllPermissionsQuery(undefined, { skip: !can.permissions });
  const me = useMyId();
  return (
    <RecordViewPage resource={USERS} id={id}>
      {(user) => {
        const direct = (permissions.data ?? []).filter((p) => user.permissionIds.includes(p._id));
        return (
          <div className="grid max-w-4xl gap-6">
            <PageHeader
              title={fullName(user) || user.userName}
              description={`@${user.userName}`}
              actionsLabel="User actions"
              actions={
                <>
                  <GatedButton need="users.update" to={`${LIST}/${id}/update`} variant="outline">
                    <Pencil aria-hidden="true" /> Edit
                  </GatedButton>
                  <SendResetLinkButton user={user} />
                  {user._id === me ? null : (
                    <ResetSecondStepButton userId={user._id} userName={user.userName} />
                  )}
                  <EndSignInsButton user={user} self={user._id === me} />
                  <GatedButton
                    need="users.delete"
                    to={`${LIST}/${id}/delete`}
                    variant="outline"
                    className="text-destructive"
                  >
                    <Trash2 aria-hidden="true" /> Delete
                  </GatedButton>
                </>
              }
            />
            <Card>
              <CardContent>
                <DetailList
                  rows={[
                    ['User name', user.userName],
                    ['First name', user.userFirstName],
                    ['Last name', user.userLastName],
                    ['Email', user.email],
                    ['Phone', user.phone],
                    ['Status', <StatusBadge status={user.status} />],
                    [
                      'Roles',
                      user.roles.length ? (
                        <span className="flex flex-wrap gap-1">
                          {user.roles.map((r) =>
                            can.roles ? (
                              <Badge key={r._id} variant="outline" asChild>
                                <Link to={`/app/company/roles/${r._id}/read`}>{r.name}</Link>
                              </Badge>
                            ) : (
                              <Badge key={r._id} variant="outline">
                                {r.name}
                              </Badge>
                            ),
                          )}
                        </span>
                      ) : (
                        'None'
                      ),
                    ],
                    [
                      'Direct permissions',
                      !can.permissions && user.permissionIds.length ? (
                        `${user.permissionIds.length} (their names need the permissions.read permission)`
                      ) : direct.length ? (
                        <span className="flex flex-wrap gap-1">
                          {direct.map((p) => (
                            <Badge key={p._id} variant="secondary" className="font-mono">
                              {p.code}
                            </Badge>
                          ))}
                        </span>
                      ) : (
                        'None'
                      ),
                    ],
                    ['Last sign-in', formatDateTime(user.lastSignInAt)],
                    ['Created', formatDateTime(user.createdAt)],
                    ['Updated', formatDateTime(user.updatedAt)],
                  ]}
                />
              </CardContent>
            </Card>
            <RecentEvents entityId={user._id} />
          </div>
        );
      }}
    </RecordViewPage>
  );
}

/** An administrator ends every sign-in of this user (they must sign in again everywhere). */
function EndSignInsButton({ user, self }: { user: User; self: boolean }) {
  const [open, setOpen] = useState(false);
  const [revoke, { isLoading }] = useEndUserSignInsMutation();
  return (
    <>
      <GatedButton
        need="users.update"
        variant="outline"
        onClick={() => setOpen(true)}
        blockedReason={
          self
            ? 'To end your own sign-ins, use “Sign out everywhere else” on your account page.'
            : null
        }
      >
        <LogOut aria-hidden="true" /> End all sessions
      </GatedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={<>End all sessions of {user.userName}?</>}
        description={
          <>
            Every device where {fullName(user) || user.userName} is signed in is signed out at once;
            they will have to sign in again.
          </>
        }
        confirmLabel="End all sessions"
        danger
        busy={isLoading}
        onConfirm={async () => {
          const { revoked } = await revoke(user._id).unwrap();
          return `${revoked} sign-in${revoked === 1 ? '' : 's'} of ${user.userName} ended.`;
        }}
      />
    </>
  );
}

export function UserCreate() {
  return (
    <RecordCreatePage resource={USERS}>
      <UserFormCard />
    </RecordCreatePage>
  );
}

export function UserEdit({ id }: { id: string }) {
  return (
    <RecordEditPage resource={USERS} id={id}>
      {(user) => <UserFormCard key={user._id} record={user} />}
    </RecordEditPage>
  );
}

function UserFormCard({ record }: { record?: User }) {
  const dispatch = useThunkDispatch();
  const can = useReadable();
  const roles = useAllRolesQuery(undefined, { skip: !can.roles });
  const permissions = useAllPermissionsQuery(undefined, { skip: !can.permissions });
  const held = new Set(useHeldPermissions());
  const me = useMyId();
  const [create] = useCreateUserMutation();
  const [update] = useUpdateUserMutation();
  const form = useForm<UserForm>({
    resolver: zodResolver(record ? editFormSchema : createFormSchema),
    defaultValues: record
      ? toValues(record)
      : {
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
  });
  const editor = useRecordEditor<User, UserForm>({
    record,
    form,
    toValues,
    create: (values) => create(values as CreateForm).unwrap(),
    update: (id, body) => update({ id, body }).unwrap(),
    fetchFresh: (id) =>
      dispatch(
        companyApi.endpoints.getUser.initiate(id, { forceRefetch: true, subscribe: false }),
      ).unwrap(),
    noun: 'user',
    nameOf: (u) => u.userName,
    viewPath,
    conflictField: (message) =>
      /user name/i.test(message) ? 'userName' : /email/i.test(message) ? 'email' : undefined,
  });
  const codeOf = useMemo(
    () => new Map((permissions.data ?? []).map((p) => [p._id, p.code])),
    [permissions.data],
  );
  const roleName = useMemo(
    () => new Map((roles.data ?? []).map((r) => [r._id, r.name])),
    [roles.data],
  );
  const self = !!record && record._id === me;
  const selfLock = self ? 'You cannot change your own roles, permissions or status.' : null;
  const { errors, isDirty, isSubmitting } = form.formState;
  const title = record ? `Edit user ${record.userName}` : 'Create user';
  const text = (
    name: 'userName' | 'email' | 'userFirstName' | 'userLastName' | 'phone',
    label: string,
    type = 'text',
    autoComplete = 'off',
  ) => (
    <Field id={`user-${name}`} label={label} error={errors[name]?.message}>
      {(aria) => (
        <Input {...aria} type={type} autoComplete={autoComplete} {...form.register(name)} />
      )}
    </Field>
  );
  return (
    <Card className="max-w-4xl">
      <PageTitle title={title} />
      <CardHeader>
        <CardTitle level={1}>{title}</CardTitle>
        <CardDescription>
          You can give only roles and permissions you hold yourself.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ChoicesLoaded lists={[roles, permissions]} what="the roles and permissions to choose from">
          <form onSubmit={editor.submit} noValidate className="grid gap-4">
            {editor.formError ? <FormAlert>{editor.formError}</FormAlert> : null}
            <div className="grid gap-4 sm:grid-cols-2">
              {text('userFirstName', 'First name')}
              {text('userLastName', 'Last name')}
              {text('userName', 'User name')}
              {self ? (
                <OwnEmail register={form.register('email')} />
              ) : (
                text('email', 'Email', 'email')
              )}
              {text('phone', 'Phone', 'tel')}
              <Field
                id="user-status"
                label="Status"
                error={errors.status?.message}
                hint={selfLock ?? 'Inactive or locked users are signed out at once.'}
              >
                {(aria) => (
                  <Controller
                    control={form.control}
                    name="status"
                    render={({ field }) => (
                      <Select value={field.value} onValueChange={field.onChange} disabled={self}>
                        <SelectTrigger {...aria} className="w-full">
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          {USER_STATUS_LIST.map((s) => (
                            <SelectItem key={s.value} value={s.value}>
                              {s.label} — {s.description}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    )}
                  />
                )}
              </Field>
              {record ? null : (
                <Field
                  id="user-password"
                  label="Initial password"
                  error={(errors as { password?: { message?: string } }).password?.message}
                  hint="At least 12 characters. Tell it to the person; they can change it after signing in."
                >
                  {(aria) => (
                    <Input
                      {...aria}
                      type="password"
                      autoComplete="new-password"
                      {...form.register('password' as 'userName')}
                    />
                  )}
                </Field>
              )}
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Roles</legend>
              {selfLock ? <p className="text-sm text-muted-foreground">{selfLock}</p> : null}
              {errors.roleIds?.message ? (
                <p className="text-sm text-destructive" role="alert">
                  {errors.roleIds.message}
                </p>
              ) : null}
              {can.roles ? null : (
                <NeedToChoose code="roles.read" what="roles" current={record?.roles} />
              )}
              <Controller
                control={form.control}
                name="roleIds"
                render={({ field }) => (
                  <RoleChoices
                    idPrefix="user-role"
                    roles={roles.data ?? []}
                    value={field.value}
                    onChange={field.onChange}
                    lockOf={(role) => selfLock ?? roleGiveLock(role, codeOf, held)}
                    reasonsShown={!selfLock}
                    emptyText={can.roles ? undefined : null}
                  />
                )}
              />
            </fieldset>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">
                Direct permissions (besides the roles’)
              </legend>
              {can.permissions ? (
                <Controller
                  control={form.control}
                  name="permissionIds"
                  render={({ field }) => (
                    <PermissionPicker
                      permissions={permissions.data ?? []}
                      value={field.value}
                      onChange={field.onChange}
                      disabledReason={selfLock}
                      idPrefix="user-permission"
                    />
                  )}
                />
              ) : (
                <NeedToChoose code="permissions.read" what="direct permissions" />
              )}
            </fieldset>
            <RecordFormActions
              submitting={isSubmitting}
              editing={!!record}
              createLabel="Create user"
              cancelTo={record ? viewPath(record._id) : LIST}
            />
          </form>
        </ChoicesLoaded>
      </CardContent>
      <LeaveGuard when={isDirty} bypass={editor.leaving} />
      <StaleEditDialog
        conflict={editor.stale}
        base={editor.base}
        labels={LABELS}
        format={(field, value) =>
          Array.isArray(value)
            ? value
                .map((id: string) =>
                  field === 'roleIds' ? (roleName.get(id) ?? id) : (codeOf.get(id) ?? id),
                )
                .join(', ') || '—'
            : value === '' || value == null
              ? '—'
              : String(value)
        }
        onReload={editor.reloadTheirs}
        onOverwrite={() => void editor.overwrite()}
        onCancel={editor.cancelStale}
      />
    </Card>
  );
}

/**
 * The caller's own email on their user record: shown, not edited. It changes only on the account
 * page, which asks for the current password (docs/decisions/020); the server refuses it here.
 */
function OwnEmail({ register }: { register: UseFormRegisterReturn<'email'> }) {
  return (
    <div className="grid content-start gap-1">
      <Field
        id="user-email"
        label="Email"
        hint="Your own email changes on your account page, which asks for your current password."
      >
        {(aria) => <Input {...aria} type="email" readOnly {...register} />}
      </Field>
      <Link
        to="/app/account/edit"
        className="text-xs text-primary underline-offset-4 hover:underline"
      >
        Change your email on your account page
      </Link>
    </div>
  );
}

/** In place of a picker whose choices this user may not read: why, and what is set now. */
export function UserDelete({ id }: { id: string }) {
  const me = useMyId();
  const [remove] = useDeleteUserMutation();
  const [restore] = useRestoreUserMutation();
  return (
    <RecordDeletePage
      resource={USERS}
      id={id}
      confirm={(user) => ({
        title: `Delete user ${user.userName}?`,
        what: [
          `The account of ${fullName(user)} (${user.email}).`,
          'Every device where they are signed in is signed out at once.',
          'Their past actions stay in the audit trail. You can undo it for a few seconds afterwards.',
        ],
        block:
          user._id === me
            ? { reason: 'You cannot delete your own account. Ask another administrator to do it.' }
            : null,
      })}
      remove={(userId) => remove(userId).unwrap()}
      restore={(userId) => restore(userId).unwrap()}
    />
  );
}
