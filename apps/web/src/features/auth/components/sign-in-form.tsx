import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router';
import { signInFormSchema, toSignInBody, type SignInForm } from '@pa/contracts/accounts';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { finishHandoff, type FirstPageHandoff } from '@/lib/first-page-handoff';
import { refreshCookie } from '@/lib/refresh-cookie';
import { setCredentials } from '@/lib/signed-in/auth-slice';
import { useSignInMutation } from '../api/auth-api';
import { returnPathAfterSignIn, type ReturnState } from '../lib/return-path';

/**
 * The password step. When the account has a second step (or must enrol one) the answer carries no
 * tokens: `onChallenge` takes it on. `alternative` is shown under the form ("Sign in with a passkey").
 * A `handoff` from the first sign-in page (main.tsx) fills the form in and, when it was sent there,
 * sends it.
 */
export function SignInCard({
  onChallenge,
  alternative,
  handoff,
}: {
  onChallenge: (challenge: MfaChallenge) => void;
  alternative?: React.ReactNode;
  handoff?: FirstPageHandoff | null;
}) {
  const [signIn, { error, isLoading, reset: forgetAnswer }] = useSignInMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as ReturnState | null)?.from;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInForm>({
    resolver: zodResolver(signInFormSchema),
    defaultValues: { login: handoff?.values.login ?? '', password: handoff?.values.password ?? '' },
  });

  // A new attempt (valid or not) starts without the last answer's "Invalid credentials.".
  const onSubmit = handleSubmit(async (form) => {
    forgetAnswer();
    try {
      const answer = await signIn(toSignInBody(form)).unwrap();
      if ('mfaRequired' in answer) return onChallenge(answer);
      const { accessToken, refreshToken, ...userDetails } = answer;
      refreshCookie.set(refreshToken);
      dispatch(setCredentials({ userDetails, accessToken, refreshToken }));
      void navigate(returnPathAfterSignIn(from), { replace: true });
    } catch (err) {
      console.error('Sign-in error:', err);
    }
  }, forgetAnswer);

  useEffect(() => {
    if (handoff?.action === 'submit' && finishHandoff(handoff)) void onSubmit();
  }, [handoff, onSubmit]);

  const busy = isLoading || isSubmitting;
  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>Sign In</CardTitle>
        <CardDescription>Use your user name or email and your password.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Sign in">
          {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          <FormField
            id="login"
            label="User name or email"
            autoComplete="username"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
            autoFocus
            error={errors.login?.message}
            {...register('login')}
          />
          <FormField
            id="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? 'Signing In...' : 'Sign In'}
          </Button>
          {alternative}
          <Link
            to="/auth/forgot-password"
            className="text-center text-sm text-primary underline-offset-4 hover:underline"
          >
            Forgot your password?
          </Link>
        </form>
      </CardContent>
    </Card>
  );
}
