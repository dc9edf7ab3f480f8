import { useState } from 'react';
import { PageCard } from '@/components/forms/page-card';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useTotpSetupMutation, type SignedIn } from '../api/two-step-api';
import { useStoreSignIn } from '../lib/signed-in';
import { AddPasskeyForm } from './add-passkey-form';
import { RecoveryCodes } from './recovery-codes';
import { TotpSetup } from './totp-setup';

type Choice = 'choose' | 'app' | 'passkey';

/**
 * Forced enrolment right after the password: the company requires a second step and the account has
 * none. Nothing else is reachable (the server gives no tokens until this is done).
 */
export function EnrolmentCard({ mfaToken, onCancel }: { mfaToken: string; onCancel: () => void }) {
  const [choice, setChoice] = useState<Choice>('choose');
  const [setup, setupState] = useTotpSetupMutation();
  const [done, setDone] = useState<{ codes: string[]; signIn: SignedIn } | null>(null);
  const store = useStoreSignIn();
  const passkeyUnavailable = usePasskeysUnavailable();

  const chooseApp = async () => {
    setChoice('app');
    await setup({ mfaToken })
      .unwrap()
      .catch((err: unknown) => console.error('Enrolment setup error:', err));
  };

  let body: React.ReactNode;
  if (done) {
    body = (
      <RecoveryCodes
        codes={done.codes}
        userName={done.signIn.userName}
        doneLabel="Continue"
        onDone={() => store(done.signIn)}
      />
    );
  } else if (choice === 'app') {
    body = setupState.data ? (
      <TotpSetup
        secret={setupState.data.secret}
        otpauthUrl={setupState.data.otpauthUrl}
        mfaToken={mfaToken}
        onConfirmed={(codes, signIn) => signIn && setDone({ codes, signIn })}
      />
    ) : setupState.error ? (
      <FormAlert>{errorMessage(setupState.error)}</FormAlert>
    ) : null;
  } else if (choice === 'passkey') {
    body = <AddPasskeyForm mfaToken={mfaToken} onAdded={(signIn) => signIn && store(signIn)} />;
  } else {
    body = (
      <div className="grid gap-3">
        <Button type="button" onClick={chooseApp}>
          Use an authenticator app
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => setChoice('passkey')}
          disabled={passkeyUnavailable !== null}
          aria-describedby={passkeyUnavailable ? 'enrol-passkey-unavailable' : undefined}
        >
          Use a passkey
        </Button>
        {passkeyUnavailable ? (
          <PasskeyUnavailableNote id="enrol-passkey-unavailable" reason={passkeyUnavailable} />
        ) : null}
      </div>
    );
  }
  return (
    <PageCard
      title="Set up a second step"
      description="Your company requires a second step when you sign in. Set one up to continue."
      contentClassName="grid gap-4"
    >
      {body}
      {done ? null : (
        <Button type="button" variant="ghost" onClick={onCancel}>
          Back to sign in
        </Button>
      )}
    </PageCard>
  );
}
