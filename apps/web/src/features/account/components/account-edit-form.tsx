import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { updateMeSchema, type UpdateMeBody } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { setUserDetails } from '@/lib/session/auth-slice';
import { useMyAccountQuery, useUpdateMeMutation } from '../api/account-api';

export function AccountEditForm() {
  const { data } = useMyAccountQuery();
  const [updateMe, { error }] = useUpdateMeMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<UpdateMeBody>({
    resolver: zodResolver(updateMeSchema),
    defaultValues: { userFirstName: '', userLastName: '', email: '' },
  });

  useEffect(() => {
    if (data) {
      reset({
        userFirstName: data.userFirstName,
        userLastName: data.userLastName,
        email: data.email,
      });
    }
  }, [data, reset]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      const updated = await updateMe(body).unwrap();
      dispatch(setUserDetails(updated ?? body));
      toast.success('Your account has been updated.');
      void navigate('/app/account/view');
    } catch (err) {
      console.error('Account update error:', err);
    }
  });

  const server = fieldErrors(error);
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>Edit account</CardTitle>
        <CardDescription>
          Your name and email. Roles are managed by your administrators.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Edit account">
          {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
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
