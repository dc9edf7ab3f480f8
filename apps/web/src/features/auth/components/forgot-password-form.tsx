import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { forgotPasswordSchema, type ForgotPasswordBody } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { finishHandoff, FORGOT_PASSWORD_PATH, pendingHandoff } from '@/lib/first-page-handoff';
import { useForgotPasswordMutation } from '../api/auth-api';

/** The same confirmation whatever the server says, so nobody learns which emails have accounts. */
export const FORGOT_PASSWORD_CONFIRMATION =
  'If an account exists for that email, a link to reset the password is on its way. It is valid for 30 minutes.';

/** On a first load the address typed on the page drawn before the app (main.tsx) is sent here. */
export function ForgotPasswordCard() {
  const [forgotPassword] = useForgotPasswordMutation();
  const [sent, setSent] = useState(false);
  const [handoff] = useState(() => pendingHandoff(FORGOT_PASSWORD_PATH));
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: handoff?.values.email ?? '' },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await forgotPassword(body).unwrap();
    } catch (error) {
      console.error('Forgot-password error:', error);
    }
    setSent(true);
  });

  useEffect(() => {
    if (handoff && finishHandoff(handoff)) void onSubmit();
  }, [handoff, onSubmit]);

  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>Forgot password</CardTitle>
        <CardDescription>We will email you a link to choose a new password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sent ? (
          <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
            {FORGOT_PASSWORD_CONFIRMATION}
          </p>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Forgot password">
            <FormField
              id="email"
              label="Email"
              type="email"
              autoComplete="email"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
              autoFocus
              error={errors.email?.message}
              {...register('email')}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? 'Sending...' : 'Send reset link'}
            </Button>
          </form>
        )}
        <Link
          to="/auth/signin"
          className="text-center text-sm text-primary underline-offset-4 hover:underline"
        >
          Back to sign in
        </Link>
      </CardContent>
    </Card>
  );
}
