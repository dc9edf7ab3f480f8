import { PageTitle } from '@/components/page-title';
import { AcceptInvitationCard } from '@/features/auth/components/accept-invitation';
import { ForgotPasswordCard } from '@/features/auth/components/forgot-password-form';
import { ResetPasswordCard } from '@/features/auth/components/reset-password-form';
import { SignInCard } from '@/features/auth/components/sign-in-form';
import { UndoEmailChangeCard } from '@/features/auth/components/undo-email-change';

const Centered = ({ children }: { children: React.ReactNode }) => (
  <section className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10">
    {children}
  </section>
);

export const SignInRoute = () => (
  <Centered>
    <PageTitle title="Sign In" />
    <SignInCard />
  </Centered>
);

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

export const AcceptInvitationRoute = () => (
  <Centered>
    <PageTitle title="Accept your invitation" />
    <AcceptInvitationCard />
  </Centered>
);
