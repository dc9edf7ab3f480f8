import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { changePasswordFormSchema, type ChangePasswordForm } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { useChangePasswordMutation } from '../api/account-api';

export function ChangePasswordCard() {
  const [changePassword, { error, reset: forgetAnswer }] = useChangePasswordMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  // A new attempt (valid or not) starts without the last answer's message.
  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    forgetAnswer();
    try {
      await changePassword({ currentPassword, newPassword }).unwrap();
      reset();
      toast.success('Your password has been changed.');
    } catch (err) {
      console.error('Change-password error:', err);
    }
  }, forgetAnswer);

  const server = fieldErrors(error);
  // A message the server tied to a field shows there only, not a second time above the form.
  const fieldSaid = Object.keys(server).length > 0;
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle level={1}>Change password</CardTitle>
        <CardDescription>At least 12 characters.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Change password">
          {error && !fieldSaid ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          <FormField
            id="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message ?? server.currentPassword}
            {...register('currentPassword')}
          />
          <FormField
            id="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message ?? server.newPassword}
            {...register('newPassword')}
          />
          <FormField
            id="confirmPassword"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Saving...' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
