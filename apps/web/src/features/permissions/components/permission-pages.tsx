import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Trash2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { deletedToast } from '@/components/record/undo-toast';
import { useRestorePermissionMutation } from '@/lib/api/restore-api';
import { type z } from 'zod';
import { createPermissionSchema, type Permission } from '@pa/contracts/permissions';
import { useBreadcrumbLabel } from '@/lib/breadcrumb-labels';
import { PageTitle } from '@/components/page-title';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api/api-error';
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
import { ForbiddenState } from '@/components/forbidden-state';
import { PageHeader } from '@/components/page-header';
import { GatedButton } from '@/components/permission-gate';
import { DeleteConfirm } from '@/components/record/delete-confirm';
import { DetailList } from '@/components/record/detail-list';
import { Field } from '@/components/record/field';
import { RecordFormActions } from '@/components/record/form-actions';
import { LeaveGuard } from '@/components/record/leave-guard';
import { RecordState } from '@/components/record/record-state';
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

function useRecord(id: string) {
  const result = useGetPermissionQuery(id);
  useBreadcrumbLabel(id, result.data?.code);
  return result;
}

export function PermissionView({ id }: { id: string }) {
  const result = useRecord(id);
  return (
    <RecordState {...result} noun="permission" listPath={LIST} need="permissions.read">
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
    </RecordState>
  );
}

export function PermissionCreate() {
  const missing = useMissingPermissions('permissions.create');
  if (missing.length) return <ForbiddenState need={missing} what="creating permissions" />;
  return <PermissionFormCard />;
}

export function PermissionEdit({ id }: { id: string }) {
  const missing = useMissingPermissions('permissions.update');
  const result = useRecord(id);
  if (missing.length) return <ForbiddenState need={missing} what="editing permissions" />;
  return (
    <RecordState {...result} noun="permission" listPath={LIST} need="permissions.read">
      {(p) => <PermissionFormCard key={p._id} record={p} />}
    </RecordState>
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
  const result = useRecord(id);
  const navigate = useNavigate();
  const [remove] = useDeletePermissionMutation();
  const [restore] = useRestorePermissionMutation();
  const canRestore = useMissingPermissions('permissions.create').length === 0;
  const missing = useMissingPermissions('permissions.delete');
  if (missing.length) return <ForbiddenState need={missing} what="deleting permissions" />;
  return (
    <RecordState {...result} noun="permission" listPath={LIST} need="permissions.read">
      {(p) => (
        <DeleteConfirm
          title={`Delete permission ${p.code}?`}
          what={[
            `The permission “${p.code}” (${p.name}).`,
            `It is held by ${p.roleCount} role${p.roleCount === 1 ? '' : 's'}; the Administrator role loses it too.`,
            `Users lose it on their next request. ${canRestore ? 'You can undo it for a few seconds afterwards.' : 'This cannot be undone.'}`,
          ]}
          block={permissionDeleteBlock(p)}
          cancelTo={viewPath(p._id)}
          onConfirm={async () => {
            try {
              await remove(p._id).unwrap();
              deletedToast(
                `Permission “${p.code}”`,
                canRestore ? () => restore(p._id).unwrap() : null,
              );
              void navigate(LIST);
            } catch (error) {
              toast.error(errorMessage(error));
            }
          }}
        />
      )}
    </RecordState>
  );
}
