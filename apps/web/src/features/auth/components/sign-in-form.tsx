import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useLocation, useNavigate } from 'react-router';
import { signInFormSchema, toSignInBody, type SignInForm } from '@pa/contracts/accounts';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { fieldBinder } from '@/components/forms/field-binder';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { finishHandoff, type FirstPageHandoff } from '@/lib/first-page-handoff';
import { refreshCookie } from '@/lib/refresh-cookie';
import { setCredentials } from '@/lib/signed-in/auth-slice';
import { useSignInMutation } from '../api/auth-api';
import { returnPathAfterSignIn, type ReturnState } from '../lib/return-path';
import { SignInFormCard } from './public-forms';

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
  const form = useForm<SignInForm>({
    resolver: zodResolver(signInFormSchema),
    defaultValues: { login: handoff?.values.login ?? '', password: handoff?.values.password ?? '' },
  });

  // A new attempt (valid or not) starts without the last answer's "Invalid credentials.".
  const onSubmit = form.handleSubmit(async (values) => {
    forgetAnswer();
    try {
      const answer = await signIn(toSignInBody(values)).unwrap();
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

  const busy = isLoading || form.formState.isSubmitting;
  const field = fieldBinder(form);
  return (
    <SignInFormCard
      onSubmit={onSubmit}
      busy={busy}
      login={field('login')}
      password={field('password')}
      alert={error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
      alternative={alternative}
    />
  );
}
