import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { Centered } from '@/components/layouts/centered';
import { PageTitle } from '@/components/page-title';
import { AcceptInvitationCard } from '@/features/auth/components/accept-invitation';
import { ForgotPasswordCard } from '@/features/auth/components/forgot-password-form';
import { ResetPasswordCard } from '@/features/auth/components/reset-password-form';
import { SignInCard } from '@/features/auth/components/sign-in-form';
import { ConfirmEmailChangeCard } from '@/features/auth/components/confirm-email-change';
import { UndoEmailChangeCard } from '@/features/auth/components/undo-email-change';
import { EnrolmentCard } from '@/features/two-step/components/enrolment-card';
import { PasskeySignInButton } from '@/features/two-step/components/passkey-sign-in-button';
import { SecondStepCard } from '@/features/two-step/components/second-step-card';
import { pendingHandoff, SIGN_IN_PATH } from '@/lib/first-page-handoff';

/**
 * The password, then the second step on the same page, or the enrolment page the company requires.
 * On a first load the page was drawn before the app (main.tsx): what was typed there and the button
 * pressed come in as a handoff, finished here.
 */
export function SignInRoute() {
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const [handoff] = useState(() => pendingHandoff(SIGN_IN_PATH));
  const navigate = useNavigate();
  const location = useLocation();
  const onChallenge = (next: MfaChallenge) => {
    if (!next.enrolmentRequired) return setChallenge(next);
    // The token travels in history state, never in the address (it would land in logs and history).
    const from = (location.state as { from?: string } | null)?.from;
    void navigate('/auth/enrol', { state: { mfaToken: next.mfaToken, from } });
  };
  return (
    <Centered>
      <PageTitle title={challenge ? 'Second step' : 'Sign In'} />
      {challenge ? (
        <SecondStepCard challenge={challenge} onCancel={() => setChallenge(null)} />
      ) : (
        <SignInCard
          onChallenge={onChallenge}
          handoff={handoff}
          alternative={<PasskeySignInButton handoff={handoff} />}
        />
      )}
    </Centered>
  );
}

/** Forced enrolment right after the password (the token comes in history state from the sign-in page). */
export function EnrolRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { mfaToken?: string; from?: string } | null;
  if (!state?.mfaToken) return <Navigate to="/auth/signin" replace />;
  return (
    <Centered>
      <PageTitle title="Set up a second step" />
      <EnrolmentCard
        mfaToken={state.mfaToken}
        onCancel={() => void navigate('/auth/signin', { replace: true })}
      />
    </Centered>
  );
}

export const ForgotPasswordRoute = () => (
  <Centered>
    <PageTitle title="Forgot password" />
    <ForgotPasswordCard />
  </Centered>
);

export const ResetPasswordRoute = () => (
  <Centered>
    <PageTitle title="Choose a new password" />
    <ResetPasswordCard />
  </Centered>
);

export const UndoEmailChangeRoute = () => (
  <Centered>
    <PageTitle title="Undo the email change" />
    <UndoEmailChangeCard />
  </Centered>
);

export const ConfirmEmailChangeRoute = () => (
  <Centered>
    <PageTitle title="Confirm your new email address" />
    <ConfirmEmailChangeCard />
  </Centered>
);

export const AcceptInvitationRoute = () => (
  <Centered>
    <PageTitle title="Accept your invitation" />
    <AcceptInvitationCard />
  </Centered>
);
