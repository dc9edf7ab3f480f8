import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router';
import {
  acceptInvitationFormSchema,
  type AcceptInvitationForm,
  type InvitationPreview,
} from '@pa/contracts/invitations';
import { PageCard } from '@/components/forms/page-card';
import { Button } from '@/components/ui/button';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, fieldErrors, isApiError } from '@/lib/api/api-error';
import { refreshCookie } from '@/lib/refresh-cookie';
import { setCredentials } from '@/lib/signed-in/auth-slice';
import { useAcceptInvitationMutation, useLookupInvitationMutation } from '../api/invitation-api';
import { DeadInvitation, deadInvitationCode } from './dead-invitation';
import { PasswordField } from './password-field';
import { AuthLink } from './public-forms';

/**
 * The page of an invitation's mailed link: whom it is for, then a user name (suggested from the
 * email) and a password; accepting creates the account and signs it in. A used, expired, revoked or
 * replaced link gets a page that says which (the server's code).
 */
export function AcceptInvitationCard() {
  const [params, setParams] = useSearchParams();
  // Kept in state: once used, the token is dropped from the address bar (and so from history).
  const [token] = useState(() => params.get('token') ?? '');
  const [lookup, { data: preview, error, isError }] = useLookupInvitationMutation();
  const [deadError, setDeadError] = useState<unknown>(null);
  const dropToken = useCallback(() => setParams({}, { replace: true }), [setParams]);

  useEffect(() => {
    if (token) void lookup({ token });
  }, [lookup, token]);

  const dead = deadInvitationCode(deadError) ? deadError : deadInvitationCode(error) ? error : null;
  if (dead) {
    return <DeadInvitation error={dead} onShown={dropToken} />;
  }
  return (
    <PageCard
      title="Accept your invitation"
      description={
        preview
          ? `${preview.companyName} invited ${preview.email} to Power Analyzer. Choose how you will sign in.`
          : 'Choose your user name and password to join your company on Power Analyzer.'
      }
      contentClassName="grid gap-4"
    >
      {!token ? (
        <FormAlert>
          This invitation link is incomplete. Open the link from the mail again.
        </FormAlert>
      ) : isError ? (
        <>
          <FormAlert>{errorMessage(error)}</FormAlert>
          <Button type="button" variant="outline" onClick={() => void lookup({ token })}>
            Try again
          </Button>
        </>
      ) : preview ? (
        <AcceptForm token={token} preview={preview} onDead={setDeadError} />
      ) : (
        <p role="status" className="flex items-center gap-3 text-sm text-muted-foreground">
          <Spinner className="size-5 border-2" /> Checking your invitation...
        </p>
      )}
    </PageCard>
  );
}

function AcceptForm({
  token,
  preview,
  onDead,
}: {
  token: string;
  preview: InvitationPreview;
  onDead: (error: unknown) => void;
}) {
  const [accept, { error }] = useAcceptInvitationMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AcceptInvitationForm>({
    resolver: zodResolver(acceptInvitationFormSchema),
    defaultValues: { userName: preview.suggestedUserName, password: '' },
  });

  const onSubmit = handleSubmit(async (form) => {
    try {
      const answer = await accept({ token, ...form }).unwrap();
      // a company that requires a second step has the invitee set one up before any token
      if ('mfaRequired' in answer) {
        void navigate(answer.enrolmentRequired ? '/auth/enrol' : '/auth/signin', {
          replace: true,
          state: { mfaToken: answer.mfaToken, from: '/app' },
        });
        return;
      }
      const { accessToken, refreshToken, ...userDetails } = answer;
      refreshCookie.set(refreshToken);
      dispatch(setCredentials({ userDetails, accessToken, refreshToken }));
      void navigate('/app', { replace: true });
    } catch (err) {
      // The link may have died since the page opened (revoked, expired, used in another tab).
      if (deadInvitationCode(err)) onDead(err);
      else console.error('Accept invitation error:', err);
    }
  });

  const serverFields = fieldErrors(error);
  const taken = isApiError(error) && error.status === 409 ? errorMessage(error) : undefined;
  const userNameError = errors.userName?.message ?? serverFields.userName ?? taken;
  const passwordError = errors.password?.message ?? serverFields.password;
  const showAlert = error !== undefined && !userNameError && !passwordError;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Accept invitation">
      {showAlert ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
      <FormField
        id="userName"
        label="User name"
        autoComplete="username"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
        autoFocus
        error={userNameError}
        {...register('userName')}
      />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="new-password"
        error={passwordError}
        {...register('password')}
      />
      <p className="-mt-2 text-sm text-muted-foreground">At least 12 characters.</p>
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {isSubmitting ? 'Creating your account...' : 'Create account and sign in'}
      </Button>
      <AuthLink to="/auth/signin">Already have an account? Sign in</AuthLink>
    </form>
  );
}
