import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useRestoreRoleMutation } from '@/lib/api/restore-api';
import { type z } from 'zod';
import { createRoleSchema, type Role } from '@pa/contracts/roles';
import { PageTitle } from '@/components/page-title';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import {
  companyApi,
  useAllPermissionsQuery,
  useCreateRoleMutation,
  useDeleteRoleMutation,
  useGetRoleQuery,
  useUpdateRoleMutation,
} from '@/lib/api/company-api';
import { useHeldPermissions, useMissingPermissions } from '@/hooks/use-held-permissions';
import { useRecordEditor } from '@/hooks/use-record-editor';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { formatDateTime } from '@/lib/format';
import { RecentEvents } from '@/components/audit/recent-events';
import { PageHeader } from '@/components/page-header';
import { GatedButton } from '@/components/permission-gate';
import { groupPermissions, PermissionPicker } from '@/components/permission-picker';
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
import { roleDeleteBlock } from './role-rules';
import { codeBeyond } from '@/lib/permission-gate';

const LIST = '/app/company/roles';
const viewPath = (id: string) => `${LIST}/${id}/read`;

const roleFormSchema = createRoleSchema.required();
type RoleForm = z.infer<typeof roleFormSchema>;
const LABELS = { name: 'Name', description: 'Description', permissionIds: 'Permissions' };
const toValues = (r: Role): RoleForm => ({
  name: r.name,
  description: r.description,
  permissionIds: [...r.permissionIds],
});

const ROLES: RecordResource<Role> = {
  noun: 'role',
  plural: 'roles',
  listPath: LIST,
  need: {
    read: 'roles.read',
    create: 'roles.create',
    update: 'roles.update',
    delete: 'roles.delete',
  },
  useQuery: useGetRoleQuery,
  nameOf: (role) => role.name,
};

export function RoleView({ id }: { id: string }) {
  const canReadPermissions = useHeldPermissions().includes('permissions.read');
  const permissions = useAllPermissionsQuery(undefined, { skip: !canReadPermissions });
  return (
    <RecordViewPage resource={ROLES} id={id}>
      {(role) => {
        const held = (permissions.data ?? []).filter((p) => role.permissionIds.includes(p._id));
        return (
          <div className="grid max-w-4xl gap-6">
            <PageHeader
              title={role.name}
              description={role.description || undefined}
              actions={
                <>
                  <GatedButton need="roles.update" to={`${LIST}/${id}/update`} variant="outline">
                    <Pencil aria-hidden="true" /> Edit
                  </GatedButton>
                  <GatedButton
                    need="roles.delete"
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
                    ['Name', role.name],
                    ['Description', role.description],
                    [
                      'Type',
                      role.isSystem ? (
                        <Badge>System</Badge>
                      ) : (
                        <Badge variant="outline">Custom</Badge>
                      ),
                    ],
                    [
                      'Users',
                      <Link
                        to={`/app/company/users?filters%5BroleId%5D=${role._id}`}
                        className="underline underline-offset-4"
                      >
                        {role.userCount} user{role.userCount === 1 ? '' : 's'}
                      </Link>,
                    ],
                    ['Created', formatDateTime(role.createdAt)],
                    ['Updated', formatDateTime(role.updatedAt)],
                  ]}
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <h2 className="text-lg leading-none font-semibold">
                  Permissions ({role.permissionIds.length})
                </h2>
              </CardHeader>
              <CardContent className="grid gap-3">
                {role.permissionIds.length === 0 ? (
                  <p className="text-sm text-muted-foreground">This role holds no permission.</p>
                ) : canReadPermissions ? null : (
                  <p className="text-sm text-muted-foreground">
                    Seeing which needs the permissions.read permission.
                  </p>
                )}
                {groupPermissions(held).map(([group, items]) => (
                  <div key={group} className="grid gap-1">
                    <h3 className="text-sm font-medium">{group}</h3>
                    <ul className="flex flex-wrap gap-1" aria-label={`${group} permissions`}>
                      {items.map((p) => (
                        <li key={p._id}>
                          <Badge variant="secondary" className="font-mono">
                            {p.code}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </CardContent>
            </Card>
            <RecentEvents entityId={role._id} />
          </div>
        );
      }}
    </RecordViewPage>
  );
}

export function RoleCreate() {
  return (
    <RecordCreatePage resource={ROLES}>
      <RoleFormCard />
    </RecordCreatePage>
  );
}

export function RoleEdit({ id }: { id: string }) {
  return (
    <RecordEditPage resource={ROLES} id={id}>
      {(role) => <RoleFormCard key={role._id} record={role} />}
    </RecordEditPage>
  );
}

function RoleFormCard({ record }: { record?: Role }) {
  const dispatch = useThunkDispatch();
  const held = new Set(useHeldPermissions());
  const canReadPermissions = held.has('permissions.read');
  const permissions = useAllPermissionsQuery(undefined, { skip: !canReadPermissions });
  const [create] = useCreateRoleMutation();
  const [update] = useUpdateRoleMutation();
  const form = useForm<RoleForm>({
    resolver: zodResolver(roleFormSchema),
    defaultValues: record ? toValues(record) : { name: '', description: '', permissionIds: [] },
  });
  const editor = useRecordEditor<Role, RoleForm>({
    record,
    form,
    toValues,
    create: (values) => create(values).unwrap(),
    update: (id, body) => update({ id, body }).unwrap(),
    fetchFresh: (id) =>
      dispatch(
        companyApi.endpoints.getRole.initiate(id, { forceRefetch: true, subscribe: false }),
      ).unwrap(),
    noun: 'role',
    nameOf: (r) => r.name,
    viewPath,
    conflictField: (message) => (/name/i.test(message) ? 'name' : undefined),
  });
  const codeOf = useMemo(
    () => new Map((permissions.data ?? []).map((p) => [p._id, p.code])),
    [permissions.data],
  );
  const { errors, isDirty, isSubmitting } = form.formState;
  const base = editor.base;
  const beyond = base && codeBeyond(base.permissionIds, (id) => codeOf.get(id), held);
  const pickerLock = base?.isSystem
    ? `The ${base.name} role always holds every permission.`
    : beyond
      ? `This role holds “${beyond}”, which you do not hold, so you cannot change its permissions.`
      : null;
  return (
    <Card className="max-w-4xl">
      <CardHeader>
        <PageTitle title={record ? `Edit role ${record.name}` : 'Create role'} />
        <CardTitle level={1}>{record ? `Edit role ${record.name}` : 'Create role'}</CardTitle>
        <CardDescription>You can give a role only permissions you hold yourself.</CardDescription>
      </CardHeader>
      <CardContent>
        <ChoicesLoaded lists={[permissions]} what="the permissions to choose from">
          <form onSubmit={editor.submit} noValidate className="grid gap-4">
            {editor.formError ? <FormAlert>{editor.formError}</FormAlert> : null}
            <Field id="role-name" label="Name" error={errors.name?.message}>
              {(aria) => (
                <Input
                  {...aria}
                  {...form.register('name')}
                  readOnly={!!base?.isSystem}
                  autoComplete="off"
                  className="max-w-md"
                />
              )}
            </Field>
            <Field id="role-description" label="Description" error={errors.description?.message}>
              {(aria) => <Textarea {...aria} {...form.register('description')} rows={2} />}
            </Field>
            <div className="grid gap-2">
              <Label asChild>
                <span id="role-permissions-label">Permissions</span>
              </Label>
              {errors.permissionIds?.message ? (
                <p className="text-sm text-destructive" role="alert">
                  {errors.permissionIds.message}
                </p>
              ) : null}
              {canReadPermissions ? (
                <>
                  {pickerLock ? (
                    <p className="text-sm text-muted-foreground">{pickerLock}</p>
                  ) : null}
                  <div role="group" aria-labelledby="role-permissions-label">
                    <Controller
                      control={form.control}
                      name="permissionIds"
                      render={({ field }) => (
                        <PermissionPicker
                          permissions={permissions.data ?? []}
                          value={field.value}
                          onChange={field.onChange}
                          disabledReason={pickerLock}
                          idPrefix="role-permission"
                        />
                      )}
                    />
                  </div>
                </>
              ) : (
                <NeedToChoose code="permissions.read" what="permissions" />
              )}
            </div>
            <RecordFormActions
              submitting={isSubmitting}
              editing={!!record}
              createLabel="Create role"
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
          field === 'permissionIds' && Array.isArray(value)
            ? value.map((id: string) => codeOf.get(id) ?? id).join(', ') || '—'
            : String(value ?? '—')
        }
        onReload={editor.reloadTheirs}
        onOverwrite={() => void editor.overwrite()}
        onCancel={editor.cancelStale}
      />
    </Card>
  );
}

export function RoleDelete({ id }: { id: string }) {
  const [remove] = useDeleteRoleMutation();
  const [restore] = useRestoreRoleMutation();
  const canRestore = useMissingPermissions('roles.create').length === 0;
  return (
    <RecordDeletePage
      resource={ROLES}
      id={id}
      confirm={(role) => ({
        title: `Delete role ${role.name}?`,
        what: [
          `The role “${role.name}” with its ${role.permissionIds.length} permission${role.permissionIds.length === 1 ? '' : 's'}.`,
          `It is assigned to ${role.userCount} user${role.userCount === 1 ? '' : 's'}.`,
          `The permissions themselves stay. ${canRestore ? 'You can undo it for a few seconds afterwards.' : 'This cannot be undone.'}`,
        ],
        block: roleDeleteBlock(role),
      })}
      remove={(roleId) => remove(roleId).unwrap()}
      restore={canRestore ? (roleId) => restore(roleId).unwrap() : null}
    />
  );
}
