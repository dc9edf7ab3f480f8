import { useState, type FormEvent } from 'react';
import { Centered } from '@/components/layouts/centered';
import { PageTitle } from '@/components/page-title';
import { ForgotPasswordFormCard } from '@/features/auth/components/public-forms';
import { FORGOT_PASSWORD_PATH, type FirstPageHandoff } from '@/lib/first-page-handoff';

/**
 * The forgot-password page of a signed-out visitor's first load, drawn before the app's code like
 * the first sign-in page (first-sign-in.tsx): the app's `ForgotPasswordCard` takes the address over
 * and sends it.
 */
export function FirstForgotPassword({
  onHandOver,
  onIntent,
}: {
  onHandOver: (handoff: FirstPageHandoff) => void;
  onIntent: () => void;
}) {
  const [sending, setSending] = useState(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    setSending(true);
    onHandOver({ path: FORGOT_PASSWORD_PATH, values: { email }, action: 'submit' });
  };

  return (
    <Centered>
      <PageTitle title="Forgot password" />
      <ForgotPasswordFormCard onSubmit={onSubmit} busy={sending} onIntent={onIntent} />
    </Centered>
  );
}
