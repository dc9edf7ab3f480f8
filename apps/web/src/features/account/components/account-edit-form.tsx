import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  emailChanges,
  updateMeFormSchema,
  type UpdateMeForm,
  type UserDetails,
} from '@pa/contracts/accounts';
import { fieldBinder } from '@/components/forms/field-binder';
import { PageCard } from '@/components/forms/page-card';
import { CurrentPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { fieldErrors } from '@/lib/api/api-error';
import { setUserDetails } from '@/lib/signed-in/auth-slice';
import { useMyAccountQuery, useUpdateMeMutation } from '../api/account-api';

const nameFields = [
  { id: 'userFirstName', label: 'First name', autoComplete: 'given-name' },
  { id: 'userLastName', label: 'Last name', autoComplete: 'family-name' },
] as const;
const contactFields = [
  { id: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { id: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
] as const;

/** The form's values for the account as stored; the password is never filled in. */
const formValues = (account?: UserDetails): UpdateMeForm => ({
  userFirstName: account?.userFirstName ?? '',
  userLastName: account?.userLastName ?? '',
  email: account?.email ?? '',
  phone: account?.phone ?? '',
  currentPassword: '',
});

/** The form over the stored account, and whether the email typed in is a change of address. */
function useAccountEdit() {
  const { data } = useMyAccountQuery();
  const [updateMe, { error }] = useUpdateMeMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const currentEmail = data?.email ?? '';
  // A new email needs the current password (docs/decisions/007): the schema knows the one to compare.
  const schema = useMemo(() => updateMeFormSchema(currentEmail), [currentEmail]);
  const form = useForm<UpdateMeForm>({
    resolver: zodResolver(schema),
    defaultValues: formValues(),
  });
  const { reset, control, handleSubmit } = form;
  const email = useWatch({ control, name: 'email' });
  const changingEmail = Boolean(data) && emailChanges(currentEmail, email);

  useEffect(() => {
    if (data) reset(formValues(data));
  }, [data, reset]);

  const onSubmit = handleSubmit(async ({ currentPassword, ...body }) => {
    try {
      // The password goes with an email change only; otherwise it is not asked for.
      const updated = await updateMe(changingEmail ? { ...body, currentPassword } : body).unwrap();
      dispatch(setUserDetails(updated ?? body));
      // The email changes only once the new address confirms it (ADR 026).
      toast.success(
        changingEmail
          ? `Check ${body.email}: your email changes when you open the link we sent there. Until then it stays ${currentEmail}.`
          : 'Your account has been updated.',
      );
      void navigate('/app/account/view');
    } catch (err) {
      console.error('Account update error:', err);
    }
  });
  return { form, error, onSubmit, changingEmail, currentEmail, navigate };
}

export function AccountEditForm() {
  const { form, error, onSubmit, changingEmail, currentEmail, navigate } = useAccountEdit();
  const { isSubmitting, isDirty } = form.formState;
  const field = fieldBinder(form, fieldErrors(error));
  return (
    <PageCard
      title="Edit account"
      description="Your name, phone and email. Roles are managed by your administrators."
      className="max-w-2xl"
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Edit account">
        {/* A server error about a field shows under that field only; others (taken email, too many tries) above. */}
        <RequestAlert error={error} />
        <div className="grid gap-4 sm:grid-cols-2">
          {nameFields.map((props) => (
            <FormField key={props.id} {...props} {...field(props.id)} />
          ))}
        </div>
        {contactFields.map((props) => (
          <FormField key={props.id} {...props} {...field(props.id)} />
        ))}
        {changingEmail ? (
          <div className="grid gap-2">
            <p className="text-sm text-muted-foreground">
              Changing your email needs your current password. We mail a link to the new address:
              your email changes when you open it, so a typo moves nothing. Then a notice with a
              link to undo the change goes to {currentEmail}, and your other sign-ins end.
            </p>
            <CurrentPasswordField id="currentPassword" {...field('currentPassword')} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? 'Saving...' : 'Save changes'}
          </Button>
          <Button type="button" variant="outline" onClick={() => navigate('/app/account/view')}>
            Cancel
          </Button>
        </div>
      </form>
    </PageCard>
  );
}
