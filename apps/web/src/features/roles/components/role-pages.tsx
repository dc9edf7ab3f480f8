import { Controller } from 'react-hook-form';
import { Link } from 'react-router';
import { restoreApi } from '@/lib/api/restore-api';
import { type z } from 'zod';
import { createRoleSchema, type Role } from '@pa/contracts/roles';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { companyApi } from '@/lib/api/company-api';
import { groupPermissions, PermissionPicker } from '@/components/permission-picker';
import { Field } from '@/components/record/field';
import { NeedToChoose } from '@/components/record/form-choices';
import {
  usePermissionChoices,
  type PermissionChoices,
} from '@/components/record/permission-choices';
import {
  needsOf,
  type FieldsProps,
  type RecordDefinition,
} from '@/components/record/record-definition';
import { RecordDetails, SystemBadge } from '@/components/record/record-details';
import { recordPages } from '@/components/record/record-scaffold';
import { codeBeyond } from '@/lib/permission-gate';
import { roleDeleteBlock } from './role-rules';

const roleFormSchema = createRoleSchema.required();
type RoleForm = z.infer<typeof roleFormSchema>;

export const ROLES: RecordDefinition<Role, RoleForm, PermissionChoices> = {
  noun: 'role',
  plural: 'roles',
  listPath: '/app/company/roles',
  need: needsOf('roles'),
  useQuery: companyApi.endpoints.getRole.useQuery,
  nameOf: (role) => role.name,
  form: {
    schema: () => roleFormSchema,
    empty: { name: '', description: '', permissionIds: [] },
    toValues: (r) => ({
      name: r.name,
      description: r.description,
      permissionIds: [...r.permissionIds],
    }),
    labels: { name: 'Name', description: 'Description', permissionIds: 'Permissions' },
    description: () => 'You can give a role only permissions you hold yourself.',
    className: 'max-w-4xl',
    useCreate: companyApi.endpoints.createRole.useMutation,
    useUpdate: companyApi.endpoints.updateRole.useMutation,
    endpoint: companyApi.endpoints.getRole,
    conflictField: (message) => (/name/i.test(message) ? 'name' : undefined),
    useChoices: () => {
      const choices = usePermissionChoices();
      return { lists: [choices.query], what: 'the permissions to choose from', context: choices };
    },
    format:
      ({ codeOf }) =>
      (field, value) =>
        field === 'permissionIds' && Array.isArray(value)
          ? value.map((id: string) => codeOf.get(id) ?? id).join(', ') || '—'
          : String(value ?? '—'),
    Fields: RoleFields,
  },
  useRemove: companyApi.endpoints.deleteRole.useMutation,
  useRestore: restoreApi.endpoints.restoreRole.useMutation,
  restoreNeed: 'roles.create',
  useDeleteWording: () => (role) => ({
    what: [
      `The role “${role.name}” with its ${role.permissionIds.length} permission${role.permissionIds.length === 1 ? '' : 's'}.`,
      `It is assigned to ${role.userCount} user${role.userCount === 1 ? '' : 's'}.`,
      'The permissions themselves stay.',
    ],
    block: roleDeleteBlock(role),
  }),
};

const pages = recordPages(ROLES);

/**
 * A built-in role keeps its name and every permission; a role holding a permission its editor does
 * not hold keeps its permissions.
 */
function RoleFields({ form, base, context }: FieldsProps<Role, RoleForm, PermissionChoices>) {
  const { errors } = form.formState;
  const { codeOf, held, canRead, all } = context;
  const beyond = base && codeBeyond(base.permissionIds, (id) => codeOf.get(id), held);
  const pickerLock = base?.isSystem
    ? `The ${base.name} role always holds every permission.`
    : beyond
      ? `This role holds “${beyond}”, which you do not hold, so you cannot change its permissions.`
      : null;
  return (
    <>
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
        {canRead ? (
          <>
            {pickerLock ? <p className="text-sm text-muted-foreground">{pickerLock}</p> : null}
            <div role="group" aria-labelledby="role-permissions-label">
              <Controller
                control={form.control}
                name="permissionIds"
                render={({ field }) => (
                  <PermissionPicker
                    permissions={all}
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
    </>
  );
}

export function RoleView({ id }: { id: string }) {
  const { all, canRead } = usePermissionChoices();
  return (
    <pages.View id={id}>
      {(role) => (
        <RecordDetails
          resource={ROLES}
          record={role}
          title={role.name}
          description={role.description || undefined}
          rows={[
            ['Name', role.name],
            ['Description', role.description],
            ['Type', <SystemBadge system={role.isSystem} />],
            [
              'Users',
              <Link
                to={`/app/company/users?filters%5BroleId%5D=${role._id}`}
                className="underline underline-offset-4"
              >
                {role.userCount} user{role.userCount === 1 ? '' : 's'}
              </Link>,
            ],
          ]}
        >
          <RolePermissions
            role={role}
            held={all.filter((p) => role.permissionIds.includes(p._id))}
            canRead={canRead}
          />
        </RecordDetails>
      )}
    </pages.View>
  );
}

/** The role's permissions by group (their codes need permissions.read). */
function RolePermissions({
  role,
  held,
  canRead,
}: {
  role: Role;
  held: PermissionChoices['all'];
  canRead: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">
          Permissions ({role.permissionIds.length})
        </h2>
      </CardHeader>
      <CardContent className="grid gap-3">
        {role.permissionIds.length === 0 ? (
          <p className="text-sm text-muted-foreground">This role holds no permission.</p>
        ) : canRead ? null : (
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
  );
}

export const { Create: RoleCreate, Edit: RoleEdit, Delete: RoleDelete } = pages;
