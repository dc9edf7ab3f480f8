import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { emailChanges, updateMeFormSchema, type UpdateMeForm } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { setUserDetails } from '@/lib/signed-in/auth-slice';
import { useMyAccountQuery, useUpdateMeMutation } from '../api/account-api';

export function AccountEditForm() {
  const { data } = useMyAccountQuery();
  const [updateMe, { error }] = useUpdateMeMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const currentEmail = data?.email ?? '';
  // A new email needs the current password (docs/decisions/007): the schema knows the one to compare.
  const schema = useMemo(() => updateMeFormSchema(currentEmail), [currentEmail]);
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<UpdateMeForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      userFirstName: '',
      userLastName: '',
      email: '',
      phone: '',
      currentPassword: '',
    },
  });
  const email = useWatch({ control, name: 'email' });
  const changingEmail = Boolean(data) && emailChanges(currentEmail, email);

  useEffect(() => {
    if (data) {
      reset({
        userFirstName: data.userFirstName,
        userLastName: data.userLastName,
        email: data.email,
        phone: data.phone ?? '',
        currentPassword: '',
      });
    }
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

  const server = fieldErrors(error);
  // A server error about a field shows under that field only; others (taken email, too many tries) above.
  const showAlert = error !== undefined && Object.keys(server).length === 0;
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle level={1}>Edit account</CardTitle>
        <CardDescription>
          Your name, phone and email. Roles are managed by your administrators.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Edit account">
          {showAlert ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="userFirstName"
              label="First name"
              autoComplete="given-name"
              error={errors.userFirstName?.message ?? server.userFirstName}
              {...register('userFirstName')}
            />
            <FormField
              id="userLastName"
              label="Last name"
              autoComplete="family-name"
              error={errors.userLastName?.message ?? server.userLastName}
              {...register('userLastName')}
            />
          </div>
          <FormField
            id="email"
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message ?? server.email}
            {...register('email')}
          />
          <FormField
            id="phone"
            label="Phone"
            type="tel"
            autoComplete="tel"
            error={errors.phone?.message ?? server.phone}
            {...register('phone')}
          />
          {changingEmail ? (
            <div className="grid gap-2">
              <p className="text-sm text-muted-foreground">
                Changing your email needs your current password. We mail a link to the new address:
                your email changes when you open it, so a typo moves nothing. Then a notice with a
                link to undo the change goes to {currentEmail}, and your other sign-ins end.
              </p>
              <FormField
                id="currentPassword"
                label="Current password"
                type="password"
                autoComplete="current-password"
                error={errors.currentPassword?.message ?? server.currentPassword}
                {...register('currentPassword')}
              />
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
      </CardContent>
    </Card>
  );
}
