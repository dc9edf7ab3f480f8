import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useConfirmEmailChangeMutation } from '../api/auth-api';
import { MailedLinkCard } from './mailed-link-card';

/**
 * The page of the link mailed to the NEW address of an email change (ADR 026): the change applies
 * when it is confirmed here. It asks before it acts, so a mail scanner that opens links changes
 * nothing.
 */
export function ConfirmEmailChangeCard() {
  const [params, setParams] = useSearchParams();
  // Kept in state: once used, the token is dropped from the address bar (and so from history).
  const [token] = useState(() => params.get('token') ?? '');
  const [confirm, { error, isLoading }] = useConfirmEmailChangeMutation();
  const [changed, setChanged] = useState<string | null>(null);

  const onConfirm = async () => {
    try {
      const answer = await confirm({ token }).unwrap();
      setChanged(answer.email);
      setParams({}, { replace: true });
    } catch (err) {
      console.error('Confirm email change error:', err);
    }
  };

  return (
    <MailedLinkCard
      title="Confirm your new email address"
      description="Your account uses this address once you confirm it here."
      hasToken={Boolean(token)}
      error={error}
      points={
        <>
          <li>Mail about your account, password reset links included, comes to this address.</li>
          <li>Your previous address gets a notice with a link to undo the change.</li>
          <li>Your other sign-ins end; your password stays the same.</li>
        </>
      }
      action={{
        label: 'Confirm this address',
        busyLabel: 'Confirming...',
        busy: isLoading,
        onClick: onConfirm,
      }}
      done={
        changed
          ? `Your email is now ${changed}. A notice went to your previous address, and your other sign-ins were ended. Sign in with your user name or ${changed} and your password.`
          : null
      }
      link={
        changed
          ? { to: '/app/account/view', label: 'Go to your account' }
          : { to: '/auth/signin', label: 'Go to sign in' }
      }
    />
  );
}
