import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { resetPasswordFormSchema, type ResetPasswordForm } from '@pa/contracts/accounts';
import { fieldBinder } from '@/components/forms/field-binder';
import { PageCard } from '@/components/forms/page-card';
import { NewPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { fieldErrors } from '@/lib/api/api-error';
import { useResetPasswordMutation } from '../api/auth-api';
import { AuthLink, DoneNote } from './public-forms';

export function ResetPasswordCard() {
  const [params, setParams] = useSearchParams();
  // Kept in state: once used, the token is dropped from the address bar (and so from history).
  const [token] = useState(() => params.get('token') ?? '');
  const [resetPassword, { error }] = useResetPasswordMutation();
  const [done, setDone] = useState(false);
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await resetPassword({ token, password }).unwrap();
      setDone(true);
      setParams({}, { replace: true });
    } catch (err) {
      console.error('Reset-password error:', err);
    }
  });

  const { errors, isSubmitting } = form.formState;
  const field = fieldBinder(form, fieldErrors(error));
  const confirm = field('confirmPassword');
  // One message per problem: a server error about a field shows under that field only.
  // While the password itself is wrong, the confirmation is not a second problem to report.
  const confirmError = errors.password
    ? undefined
    : errors.confirmPassword && !form.getValues('confirmPassword')
      ? 'Type the new password again'
      : confirm.error;
  return (
    <PageCard
      title="Choose a new password"
      description="At least 12 characters. Every signed-in device is signed out."
      contentClassName="grid gap-4"
    >
      {!token ? (
        <FormAlert>This reset link is incomplete. Ask for a new one.</FormAlert>
      ) : done ? (
        <DoneNote>Your password has been changed. You can sign in with it now.</DoneNote>
      ) : (
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Reset password">
          <RequestAlert error={error} fields={['password', 'confirmPassword']} />
          <NewPasswordField
            id="password"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
            autoFocus
            {...field('password')}
          />
          <NewPasswordField
            id="confirmPassword"
            label="Confirm new password"
            {...confirm}
            error={confirmError}
          />
          <Button type="submit" disabled={isSubmitting} className="w-full">
            {isSubmitting ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
      <AuthLink to={done ? '/auth/signin' : '/auth/forgot-password'}>
        {done ? 'Go to sign in' : 'Ask for a new link'}
      </AuthLink>
    </PageCard>
  );
}
