import { Link } from 'react-router';
import { restoreApi } from '@/lib/api/restore-api';
import { type z } from 'zod';
import { createPermissionSchema, type Permission } from '@pa/contracts/permissions';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { companyApi } from '@/lib/api/company-api';
import { Field } from '@/components/record/field';
import {
  needsOf,
  type FieldsProps,
  type RecordDefinition,
} from '@/components/record/record-definition';
import { RecordDetails, SystemBadge } from '@/components/record/record-details';
import { recordPages } from '@/components/record/record-scaffold';
import { permissionDeleteBlock } from './permission-rules';

/** The form's values: the create schema with every default filled in. */
const permissionFormSchema = createPermissionSchema.required();
type PermissionForm = z.infer<typeof permissionFormSchema>;

export const PERMISSIONS: RecordDefinition<Permission, PermissionForm> = {
  noun: 'permission',
  plural: 'permissions',
  listPath: '/app/company/permissions',
  need: needsOf('permissions'),
  useQuery: companyApi.endpoints.getPermission.useQuery,
  nameOf: (p) => p.code,
  form: {
    schema: () => permissionFormSchema,
    empty: { code: '', name: '', description: '', group: '' },
    toValues: (p) => ({ code: p.code, name: p.name, description: p.description, group: p.group }),
    labels: { code: 'Code', name: 'Name', description: 'Description', group: 'Group' },
    description: (record) =>
      record
        ? 'Roles holding it keep it; a change applies on their next request.'
        : 'A new permission goes into the Administrator role at once.',
    className: 'max-w-2xl',
    useCreate: companyApi.endpoints.createPermission.useMutation,
    useUpdate: companyApi.endpoints.updatePermission.useMutation,
    endpoint: companyApi.endpoints.getPermission,
    conflictField: (message) => (/code/i.test(message) ? 'code' : undefined),
    Fields: PermissionFields,
  },
  useRemove: companyApi.endpoints.deletePermission.useMutation,
  useRestore: restoreApi.endpoints.restorePermission.useMutation,
  restoreNeed: 'permissions.create',
  useDeleteWording: () => (p) => ({
    what: [
      `The permission “${p.code}” (${p.name}).`,
      `It is held by ${p.roleCount} role${p.roleCount === 1 ? '' : 's'}; the Administrator role loses it too.`,
      'Users lose it on their next request.',
    ],
    block: permissionDeleteBlock(p),
  }),
};

const pages = recordPages(PERMISSIONS);

/** A built-in permission keeps its code, name and group; only its description can change. */
function PermissionFields({ form, base }: FieldsProps<Permission, PermissionForm, undefined>) {
  const { errors } = form.formState;
  const system = !!base?.isSystem;
  const lockHint = system ? 'Built in: only the description can change.' : undefined;
  const text = (name: 'name' | 'group', label: string) => (
    <Field id={`permission-${name}`} label={label} error={errors[name]?.message}>
      {(aria) => <Input {...aria} {...form.register(name)} readOnly={system} autoComplete="off" />}
    </Field>
  );
  return (
    <>
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
        {text('name', 'Name')}
        {text('group', 'Group')}
      </div>
      <Field id="permission-description" label="Description" error={errors.description?.message}>
        {(aria) => <Textarea {...aria} {...form.register('description')} rows={3} />}
      </Field>
    </>
  );
}

export function PermissionView({ id }: { id: string }) {
  return (
    <pages.View id={id}>
      {(p) => (
        <RecordDetails
          resource={PERMISSIONS}
          record={p}
          title={p.code}
          description={p.name}
          className="max-w-3xl"
          audit={false}
          rows={[
            ['Code', <span className="font-mono">{p.code}</span>],
            ['Name', p.name],
            ['Group', p.group],
            ['Description', p.description],
            ['Type', <SystemBadge system={p.isSystem} />],
            [
              'Held by',
              <Link
                to={`/app/company/roles?filters%5BpermissionId%5D=${p._id}`}
                className="underline underline-offset-4"
              >
                {p.roleCount} role{p.roleCount === 1 ? '' : 's'}
              </Link>,
            ],
          ]}
        />
      )}
    </pages.View>
  );
}

export const { Create: PermissionCreate, Edit: PermissionEdit, Delete: PermissionDelete } = pages;
