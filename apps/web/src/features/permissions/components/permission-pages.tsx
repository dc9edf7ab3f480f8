import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Trash2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useRestorePermissionMutation } from '@/lib/api/restore-api';
import { type z } from 'zod';
import { createPermissionSchema, type Permission } from '@pa/contracts/permissions';
import { PageTitle } from '@/components/page-title';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import {
  companyApi,
  useCreatePermissionMutation,
  useDeletePermissionMutation,
  useGetPermissionQuery,
  useUpdatePermissionMutation,
} from '@/lib/api/company-api';
import { useRecordEditor } from '@/hooks/use-record-editor';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { formatDateTime } from '@/lib/format';
import { PageHeader } from '@/components/page-header';
import { GatedButton } from '@/components/permission-gate';
import { DetailList } from '@/components/record/detail-list';
import { Field } from '@/components/record/field';
import { RecordFormActions } from '@/components/record/form-actions';
import { LeaveGuard } from '@/components/record/leave-guard';
import {
  RecordCreatePage,
  RecordDeletePage,
  RecordEditPage,
  RecordViewPage,
  type RecordResource,
} from '@/components/record/record-scaffold';
import { StaleEditDialog } from '@/components/record/stale-edit-dialog';
import { permissionDeleteBlock } from './permission-rules';

const LIST = '/app/company/permissions';
const viewPath = (id: string) => `${LIST}/${id}/read`;

/** The form's values: the create schema with every default filled in. */
const permissionFormSchema = createPermissionSchema.required();
type PermissionForm = z.infer<typeof permissionFormSchema>;
const LABELS = { code: 'Code', name: 'Name', description: 'Description', group: 'Group' };
const toValues = (p: Permission): PermissionForm => ({
  code: p.code,
  name: p.name,
  description: p.description,
  group: p.group,
});

const PERMISSIONS: RecordResource<Permission> = {
  noun: 'permission',
  plural: 'permissions',
  listPath: LIST,
  need: {
    read: 'permissions.read',
    create: 'permissions.create',
    update: 'permissions.update',
    delete: 'permissions.delete',
  },
  useQuery: useGetPermissionQuery,
  nameOf: (p) => p.code,
};

export function PermissionView({ id }: { id: string }) {
  return (
    <RecordViewPage resource={PERMISSIONS} id={id}>
      {(p) => (
        <div className="grid max-w-3xl gap-6">
          <PageHeader
            title={p.code}
            description={p.name}
            actions={
              <>
                <GatedButton
                  need="permissions.update"
                  to={`${LIST}/${id}/update`}
                  variant="outline"
                >
                  <Pencil aria-hidden="true" /> Edit
                </GatedButton>
                <GatedButton
                  need="permissions.delete"
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
                  ['Code', <span className="font-mono">{p.code}</span>],
                  ['Name', p.name],
                  ['Group', p.group],
                  ['Description', p.description],
                  [
                    'Type',
                    p.isSystem ? <Badge>System</Badge> : <Badge variant="outline">Custom</Badge>,
                  ],
                  [
                    'Held by',
                    <Link
                      to={`/app/company/roles?filters%5BpermissionId%5D=${p._id}`}
                      className="underline underline-offset-4"
                    >
                      {p.roleCount} role{p.roleCount === 1 ? '' : 's'}
                    </Link>,
                  ],
                  ['Created', formatDateTime(p.createdAt)],
                  ['Updated', formatDateTime(p.updatedAt)],
                ]}
              />
            </CardContent>
          </Card>
        </div>
      )}
    </RecordViewPage>
  );
}

export function PermissionCreate() {
  return (
    <RecordCreatePage resource={PERMISSIONS}>
      <PermissionFormCard />
    </RecordCreatePage>
  );
}

export function PermissionEdit({ id }: { id: string }) {
  return (
    <RecordEditPage resource={PERMISSIONS} id={id}>
      {(p) => <PermissionFormCard key={p._id} record={p} />}
    </RecordEditPage>
  );
}

function PermissionFormCard({ record }: { record?: Permission }) {
  const dispatch = useThunkDispatch();
  const [create] = useCreatePermissionMutation();
  const [update] = useUpdatePermissionMutation();
  const form = useForm<PermissionForm>({
    resolver: zodResolver(permissionFormSchema),
    defaultValues: record ? toValues(record) : { code: '', name: '', description: '', group: '' },
  });
  const editor = useRecordEditor<Permission, PermissionForm>({
    record,
    form,
    toValues,
    create: (values) => create(values).unwrap(),
    update: (id, body) => update({ id, body }).unwrap(),
    fetchFresh: (id) =>
      dispatch(
        companyApi.endpoints.getPermission.initiate(id, { forceRefetch: true, subscribe: false }),
      ).unwrap(),
    noun: 'permission',
    nameOf: (p) => p.code,
    viewPath,
    conflictField: (message) => (/code/i.test(message) ? 'code' : undefined),
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  const system = !!editor.base?.isSystem;
  const lockHint = system ? 'Built in: only the description can change.' : undefined;
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <PageTitle title={record ? `Edit permission ${record.code}` : 'Create permission'} />
        <CardTitle level={1}>
          {record ? `Edit permission ${record.code}` : 'Create permission'}
        </CardTitle>
        <CardDescription>
          {record
            ? 'Roles holding it keep it; a change applies on their next request.'
            : 'A new permission goes into the Administrator role at once.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={editor.submit} noValidate className="grid gap-4">
          {editor.formError ? <FormAlert>{editor.formError}</FormAlert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="permission-code"
              label="Code"
              error={errors.code?.message}
              hint={lockHint ?? 'Lower-case words joined by dots, e.g. reports.export'}
            >
              {(aria) => (
                <Input
                  {...aria}
                  {...form.register('code')}
                  readOnly={system}
                  autoComplete="off"
                  className="font-mono"
                />
              )}
            </Field>
            <Field id="permission-name" label="Name" error={errors.name?.message}>
              {(aria) => (
                <Input {...aria} {...form.register('name')} readOnly={system} autoComplete="off" />
              )}
            </Field>
            <Field id="permission-group" label="Group" error={errors.group?.message}>
              {(aria) => (
                <Input {...aria} {...form.register('group')} readOnly={system} autoComplete="off" />
              )}
            </Field>
          </div>
          <Field
            id="permission-description"
            label="Description"
            error={errors.description?.message}
          >
            {(aria) => <Textarea {...aria} {...form.register('description')} rows={3} />}
          </Field>
          <RecordFormActions
            submitting={isSubmitting}
            editing={!!record}
            createLabel="Create permission"
            cancelTo={record ? viewPath(record._id) : LIST}
          />
        </form>
      </CardContent>
      <LeaveGuard when={isDirty} bypass={editor.leaving} />
      <StaleEditDialog
        conflict={editor.stale}
        base={editor.base}
        labels={LABELS}
        onReload={editor.reloadTheirs}
        onOverwrite={() => void editor.overwrite()}
        onCancel={editor.cancelStale}
      />
    </Card>
  );
}

export function PermissionDelete({ id }: { id: string }) {
  const [remove] = useDeletePermissionMutation();
  const [restore] = useRestorePermissionMutation();
  const canRestore = useMissingPermissions('permissions.create').length === 0;
  return (
    <RecordDeletePage
      resource={PERMISSIONS}
      id={id}
      confirm={(p) => ({
        title: `Delete permission ${p.code}?`,
        what: [
          `The permission “${p.code}” (${p.name}).`,
          `It is held by ${p.roleCount} role${p.roleCount === 1 ? '' : 's'}; the Administrator role loses it too.`,
          `Users lose it on their next request. ${canRestore ? 'You can undo it for a few seconds afterwards.' : 'This cannot be undone.'}`,
        ],
        block: permissionDeleteBlock(p),
      })}
      remove={(permissionId) => remove(permissionId).unwrap()}
      restore={canRestore ? (permissionId) => restore(permissionId).unwrap() : null}
    />
  );
}
