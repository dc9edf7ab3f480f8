import { Controller, type UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { createUserSchema, USER_STATUS_LIST, type User } from '@pa/contracts/users';
import type { Role } from '@pa/contracts/roles';
import { Input } from '@/components/ui/input';
import { PermissionPicker } from '@/components/permission-picker';
import { OptionSelect } from '@/components/data-table/option-select';
import { Field } from '@/components/record/field';
import { NeedToChoose } from '@/components/record/form-choices';
import type { PermissionChoices } from '@/components/record/permission-choices';
import type { FieldsProps } from '@/components/record/record-definition';
import { RoleChoices, roleGiveLock } from './role-choices';

export const createFormSchema = createUserSchema.required();
export const editFormSchema = createUserSchema.omit({ password: true }).required();
export type CreateForm = z.infer<typeof createFormSchema>;
type EditForm = z.infer<typeof editFormSchema>;
export type UserForm = CreateForm | EditForm;

/** What the user form offers to choose from: the permissions, and the roles with roles.read. */
export interface UserChoices extends PermissionChoices {
  roles: readonly Role[];
  roleName: ReadonlyMap<string, string>;
  canReadRoles: boolean;
  /** The signed-in user's id: their own roles, permissions and status are not theirs to change. */
  me: string | undefined;
}

type Props = FieldsProps<User, UserForm, UserChoices>;

const STATUS_OPTIONS = USER_STATUS_LIST.map((s) => ({
  value: s.value,
  label: `${s.label} — ${s.description}`,
}));

/** The user form: names, email, phone, status, the first password, roles and direct permissions. */
export function UserFields({ form, record, context }: Props) {
  const { errors } = form.formState;
  const self = !!record && record._id === context.me;
  const selfLock = self ? 'You cannot change your own roles, permissions or status.' : null;
  const text = (
    name: 'userName' | 'email' | 'userFirstName' | 'userLastName' | 'phone',
    label: string,
    type = 'text',
  ) => (
    <Field id={`user-${name}`} label={label} error={errors[name]?.message}>
      {(aria) => <Input {...aria} type={type} autoComplete="off" {...form.register(name)} />}
    </Field>
  );
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('userFirstName', 'First name')}
        {text('userLastName', 'Last name')}
        {text('userName', 'User name')}
        {self ? <OwnEmail register={form.register('email')} /> : text('email', 'Email', 'email')}
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
                <OptionSelect
                  value={field.value}
                  onChange={field.onChange}
                  options={STATUS_OPTIONS}
                  disabled={self}
                  trigger={{ ...aria, className: 'w-full' }}
                />
              )}
            />
          )}
        </Field>
        {record ? null : <PasswordField form={form} />}
      </div>
      <UserRoles form={form} record={record} context={context} selfLock={selfLock} />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">
          Direct permissions (besides the roles’)
        </legend>
        {context.canRead ? (
          <Controller
            control={form.control}
            name="permissionIds"
            render={({ field }) => (
              <PermissionPicker
                permissions={context.all}
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
    </>
  );
}

/** A new user's first password (the create form only). */
function PasswordField({ form }: Pick<Props, 'form'>) {
  const { errors } = form.formState as { errors: { password?: { message?: string } } };
  return (
    <Field
      id="user-password"
      label="Initial password"
      error={errors.password?.message}
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
  );
}

/** The roles fieldset: those the editor may give, each other one disabled with its reason. */
function UserRoles({
  form,
  record,
  context,
  selfLock,
}: Omit<Props, 'base'> & { selfLock: string | null }) {
  const { errors } = form.formState;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Roles</legend>
      {selfLock ? <p className="text-sm text-muted-foreground">{selfLock}</p> : null}
      {errors.roleIds?.message ? (
        <p className="text-sm text-destructive" role="alert">
          {errors.roleIds.message}
        </p>
      ) : null}
      {context.canReadRoles ? null : (
        <NeedToChoose code="roles.read" what="roles" current={record?.roles} />
      )}
      <Controller
        control={form.control}
        name="roleIds"
        render={({ field }) => (
          <RoleChoices
            idPrefix="user-role"
            roles={context.roles}
            value={field.value}
            onChange={field.onChange}
            lockOf={(role) => selfLock ?? roleGiveLock(role, context.codeOf, context.held)}
            reasonsShown={!selfLock}
            emptyText={context.canReadRoles ? undefined : null}
          />
        )}
      />
    </fieldset>
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
