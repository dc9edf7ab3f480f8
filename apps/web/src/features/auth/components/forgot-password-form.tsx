import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { forgotPasswordSchema, type ForgotPasswordBody } from '@pa/contracts/accounts';
import { fieldBinder } from '@/components/forms/field-binder';
import { finishHandoff, FORGOT_PASSWORD_PATH, pendingHandoff } from '@/lib/first-page-handoff';
import { useForgotPasswordMutation } from '../api/auth-api';
import { DoneNote, ForgotPasswordFormCard } from './public-forms';

/** The same confirmation whatever the server says, so nobody learns which emails have accounts. */
export const FORGOT_PASSWORD_CONFIRMATION =
  'If an account exists for that email, a link to reset the password is on its way. It is valid for 30 minutes.';

/** On a first load the address typed on the page drawn before the app (main.tsx) is sent here. */
export function ForgotPasswordCard() {
  const [forgotPassword] = useForgotPasswordMutation();
  const [sent, setSent] = useState(false);
  const [handoff] = useState(() => pendingHandoff(FORGOT_PASSWORD_PATH));
  const form = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: handoff?.values.email ?? '' },
  });

  const onSubmit = form.handleSubmit(async (body) => {
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
    <ForgotPasswordFormCard
      onSubmit={onSubmit}
      busy={form.formState.isSubmitting}
      email={fieldBinder(form)('email')}
      done={sent ? <DoneNote>{FORGOT_PASSWORD_CONFIRMATION}</DoneNote> : undefined}
    />
  );
}
