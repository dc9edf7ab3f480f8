import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { type z } from 'zod';
import { createInvitationSchema } from '@pa/contracts/invitations';
import { ForbiddenState } from '@/components/forbidden-state';
import { PageTitle } from '@/components/page-title';
import { RecordFormActions } from '@/components/record/form-actions';
import { ChoicesLoaded } from '@/components/record/form-choices';
import { Field } from '@/components/record/field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { errorMessage, fieldErrors, isApiError } from '@/lib/api/api-error';
import { useAllRolesQuery } from '@/lib/api/company-api';
import { usePermissionChoices } from '@/components/record/permission-choices';
import { useCreateInvitationMutation } from '../../api/invitations-api';
import { RoleChoices, roleGiveLock } from '../role-choices';

const LIST = '/app/company/users';
const inviteFormSchema = createInvitationSchema.required();
type InviteForm = z.infer<typeof inviteFormSchema>;

/** The "Invite user" page: who to invite and with which roles; the server mails the link. */
export function InviteUser() {
  const missing = useMissingPermissions('users.create');
  if (missing.length) return <ForbiddenState need={missing} what="inviting users" />;
  return <InviteUserForm />;
}

function InviteUserForm() {
  const navigate = useNavigate();
  const canReadRoles = useMissingPermissions('roles.read').length === 0;
  const roles = useAllRolesQuery(undefined, { skip: !canReadRoles });
  const { query: permissions, codeOf, held } = usePermissionChoices();
  const [invite, { error }] = useCreateInvitationMutation();
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '', userFirstName: '', userLastName: '', roleIds: [] },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const invitation = await invite(values).unwrap();
      toast.success(`Invitation sent to ${invitation.email}.`);
      // The list's "Pending invitations" takes focus, showing the one just sent.
      void navigate(LIST, { state: { invited: invitation.email } });
    } catch (err) {
      console.error('Invite error:', err);
    }
  });

  // Focus starts in the form's first field once the form is on screen (after the role lists load).
  const focused = useRef(false);
  const focusFirstField = (node: HTMLFormElement | null) => {
    if (!node || focused.current) return;
    focused.current = true;
    form.setFocus('email');
  };

  const { errors, isSubmitting } = form.formState;
  const server = fieldErrors(error);
  // A taken email (409) belongs under the email field; anything else goes above the form.
  const emailTaken = isApiError(error) && error.status === 409 ? errorMessage(error) : undefined;
  const emailError = errors.email?.message ?? server.email ?? emailTaken;
  const showAlert = error !== undefined && !emailError && !server.roleIds;
  const text = (name: 'email' | 'userFirstName' | 'userLastName', label: string, hint?: string) => (
    <Field
      id={`invite-${name}`}
      label={label}
      error={name === 'email' ? emailError : errors[name]?.message}
      hint={hint}
    >
      {(aria) => (
        <Input
          {...aria}
          type={name === 'email' ? 'email' : 'text'}
          autoComplete="off"
          {...form.register(name)}
        />
      )}
    </Field>
  );
  return (
    <Card className="max-w-4xl">
      <PageTitle title="Invite user" />
      <CardHeader>
        <CardTitle level={1}>Invite user</CardTitle>
        <CardDescription>
          We mail them a link to choose their user name and password. You can give only roles whose
          permissions you hold yourself.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ChoicesLoaded lists={[roles, permissions]} what="the roles to choose from">
          <form
            ref={focusFirstField}
            onSubmit={onSubmit}
            noValidate
            className="grid gap-4"
            aria-label="Invite user"
          >
            {showAlert ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="sm:col-span-2">
                {text('email', 'Email', 'The link works for 7 days.')}
              </div>
              {text('userFirstName', 'First name (optional)')}
              {text('userLastName', 'Last name (optional)')}
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Roles</legend>
              {server.roleIds ? (
                <p className="text-sm text-destructive" role="alert">
                  {server.roleIds}
                </p>
              ) : null}
              {canReadRoles ? (
                <Controller
                  control={form.control}
                  name="roleIds"
                  render={({ field }) => (
                    <RoleChoices
                      idPrefix="invite-role"
                      roles={roles.data ?? []}
                      value={field.value}
                      onChange={field.onChange}
                      lockOf={(role) => roleGiveLock(role, codeOf, held)}
                    />
                  )}
                />
              ) : (
                <p className="text-sm text-muted-foreground">
                  You cannot see the roles (it needs roles.read): the invitee starts without roles,
                  and an administrator can give them roles later.
                </p>
              )}
            </fieldset>
            <RecordFormActions
              submitting={isSubmitting}
              editing={false}
              createLabel="Send invitation"
              cancelTo={LIST}
            />
          </form>
        </ChoicesLoaded>
      </CardContent>
    </Card>
  );
}
