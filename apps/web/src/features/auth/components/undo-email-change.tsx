import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router';
import { endSession } from '@/lib/api/base-query';
import { portalApi } from '@/lib/api/portal-api';
import { power7Api } from '@/lib/api/power7-api';
import { removePersistedSignIn } from '@/lib/signed-in/persisted-sign-in';
import { useUndoEmailChangeMutation } from '../api/auth-api';
import { MailedLinkCard } from './mailed-link-card';

/**
 * The page of the link mailed to the old address after an email change (docs/decisions/007). It
 * asks before it acts, so a mail scanner that opens links undoes nothing.
 */
export function UndoEmailChangeCard() {
  const [params, setParams] = useSearchParams();
  // Kept in state: once used, the token is dropped from the address bar (and so from history).
  const [token] = useState(() => params.get('token') ?? '');
  const [undo, { error, isLoading }] = useUndoEmailChangeMutation();
  const [restored, setRestored] = useState<string | null>(null);
  const dispatch = useDispatch();

  const onUndo = async () => {
    try {
      const answer = await undo({ token }).unwrap();
      setRestored(answer.email);
      setParams({}, { replace: true });
      // Every sign-in of the account has ended, this browser's too if it had one.
      endSession({ dispatch });
      dispatch(portalApi.util.resetApiState());
      dispatch(power7Api.util.resetApiState());
      await removePersistedSignIn();
    } catch (err) {
      console.error('Undo email change error:', err);
    }
  };

  return (
    <MailedLinkCard
      title="Undo the email change"
      description="The email address of your account was changed. If it was not you, undo it here."
      hasToken={Boolean(token)}
      error={error}
      points={
        <>
          <li>Your previous email address comes back.</li>
          <li>Every sign-in of your account ends, on every device.</li>
          <li>
            The password stops working (whoever changed the email knew it): you choose a new one
            through a link mailed to your previous address.
          </li>
        </>
      }
      action={{
        label: 'Undo the change',
        busyLabel: 'Undoing...',
        busy: isLoading,
        onClick: onUndo,
      }}
      done={
        restored
          ? `Your email is ${restored} again. Every sign-in of your account was ended and its password was disabled. A link to choose a new password is on its way to ${restored}.`
          : null
      }
      link={
        restored
          ? { to: '/auth/forgot-password', label: 'No mail? Ask for a new reset link' }
          : { to: '/auth/signin', label: 'Go to sign in' }
      }
    />
  );
}
