import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { resetPasswordFormSchema, type ResetPasswordForm } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { useResetPasswordMutation } from '../api/auth-api';

export function ResetPasswordCard() {
  const [params, setParams] = useSearchParams();
  // Kept in state: once used, the token is dropped from the address bar (and so from history).
  const [token] = useState(() => params.get('token') ?? '');
  const [resetPassword, { error }] = useResetPasswordMutation();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await resetPassword({ token, password }).unwrap();
      setDone(true);
      setParams({}, { replace: true });
    } catch (err) {
      console.error('Reset-password error:', err);
    }
  });

  const serverFieldErrors = fieldErrors(error);
  // One message per problem: a server error about a field shows under that field only.
  // While the password itself is wrong, the confirmation is not a second problem to report.
  const confirmError = errors.password
    ? undefined
    : errors.confirmPassword && !getValues('confirmPassword')
      ? 'Type the new password again'
      : (errors.confirmPassword?.message ?? serverFieldErrors.confirmPassword);
  const showAlert =
    error !== undefined && !serverFieldErrors.password && !serverFieldErrors.confirmPassword;
  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>Choose a new password</CardTitle>
        <CardDescription>
          At least 12 characters. Every signed-in device is signed out.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!token ? (
          <FormAlert>This reset link is incomplete. Ask for a new one.</FormAlert>
        ) : done ? (
          <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
            Your password has been changed. You can sign in with it now.
          </p>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Reset password">
            {showAlert ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
            <FormField
              id="password"
              label="New password"
              type="password"
              autoComplete="new-password"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
              autoFocus
              error={errors.password?.message ?? serverFieldErrors.password}
              {...register('password')}
            />
            <FormField
              id="confirmPassword"
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              error={confirmError}
              {...register('confirmPassword')}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? 'Saving...' : 'Set new password'}
            </Button>
          </form>
        )}
        <Link
          to={done ? '/auth/signin' : '/auth/forgot-password'}
          className="text-center text-sm text-primary underline-offset-4 hover:underline"
        >
          {done ? 'Go to sign in' : 'Ask for a new link'}
        </Link>
      </CardContent>
    </Card>
  );
}
