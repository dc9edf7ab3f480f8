import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageCard } from '@/components/forms/page-card';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useConfirmEmailChangeMutation } from '../api/auth-api';
import { AuthLink, DoneNote } from './public-forms';

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
    <PageCard
      title="Confirm your new email address"
      description="Your account uses this address once you confirm it here."
      contentClassName="grid gap-4"
    >
      {!token ? (
        <FormAlert>This link is incomplete. Open the link from the mail again.</FormAlert>
      ) : changed ? (
        <DoneNote>
          Your email is now {changed}. A notice went to your previous address, and your other
          sign-ins were ended. Sign in with your user name or {changed} and your password.
        </DoneNote>
      ) : (
        <>
          {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">
            <li>Mail about your account, password reset links included, comes to this address.</li>
            <li>Your previous address gets a notice with a link to undo the change.</li>
            <li>Your other sign-ins end; your password stays the same.</li>
          </ul>
          <Button type="button" disabled={isLoading} className="w-full" onClick={onConfirm}>
            {isLoading ? 'Confirming...' : 'Confirm this address'}
          </Button>
        </>
      )}
      <AuthLink to={changed ? '/app/account/view' : '/auth/signin'}>
        {changed ? 'Go to your account' : 'Go to sign in'}
      </AuthLink>
    </PageCard>
  );
}
