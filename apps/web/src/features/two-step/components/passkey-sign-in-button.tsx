import { startAuthentication } from '@simplewebauthn/browser';
import { useCallback, useEffect, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { finishHandoff, type FirstPageHandoff } from '@/lib/first-page-handoff';
import { usePasskeySignInMutation, usePasskeySignInOptionsMutation } from '../api/two-step-api';
import { passkeyProblem, useStoreSignIn } from '../lib/signed-in';

/**
 * "Sign in with a passkey": any passkey of this site the browser or a security key holds. Pressed on
 * the first sign-in page (main.tsx), it starts as soon as this one is shown (`handoff`).
 */
export function PasskeySignInButton({ handoff }: { handoff?: FirstPageHandoff | null }) {
  const [options] = usePasskeySignInOptionsMutation();
  const [signIn, { error, isLoading }] = usePasskeySignInMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const store = useStoreSignIn();
  const unavailable = usePasskeysUnavailable();

  const authenticate = useCallback(async () => {
    try {
      const optionsJSON = await options().unwrap();
      const response = await startAuthentication({ optionsJSON });
      store(await signIn({ response }).unwrap());
    } catch (err) {
      if (err instanceof Error) setProblem(passkeyProblem(err));
    }
  }, [options, signIn, store]);
  const start = () => {
    setProblem(null);
    void authenticate();
  };

  useEffect(() => {
    // The ceremony runs after the effect, not inside it (its state updates all follow an await).
    if (handoff?.action === 'passkey' && finishHandoff(handoff) && !unavailable)
      queueMicrotask(() => void authenticate());
  }, [handoff, authenticate, unavailable]);

  return (
    <div className="grid gap-3">
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
      <Button
        type="button"
        variant="outline"
        onClick={start}
        disabled={isLoading || unavailable !== null}
        aria-describedby={unavailable ? 'passkey-sign-in-unavailable' : undefined}
      >
        <KeyRound aria-hidden="true" />
        Sign in with a passkey
      </Button>
      {unavailable ? (
        <PasskeyUnavailableNote id="passkey-sign-in-unavailable" reason={unavailable} />
      ) : null}
    </div>
  );
}
