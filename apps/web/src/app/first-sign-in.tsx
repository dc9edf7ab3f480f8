import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { Centered } from '@/components/layouts/centered';
import { PageTitle } from '@/components/page-title';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { SignInFormCard } from '@/features/auth/components/public-forms';
import { SIGN_IN_PATH, type FirstPageHandoff } from '@/lib/first-page-handoff';

interface FirstSignInProps {
  /** Loads the app, whose sign-in page takes the values over and finishes the action. */
  onHandOver: (handoff: FirstPageHandoff) => void;
  /** The visitor has started to fill the form: start loading the app. */
  onIntent: () => void;
}

/**
 * The sign-in page of a signed-out visitor's first load, drawn before the app's code (router, store,
 * form library, validation) is loaded (main.tsx), like the landing page: the same card as the app's
 * `SignInCard` (`SignInFormCard`), whose buttons hand what was typed over to it. Validation, the request, the second
 * step and passkeys all run in the app's page, so they behave exactly as after any other way in.
 */
export function FirstSignIn({ onHandOver, onIntent }: FirstSignInProps) {
  // Set once a button was pressed: the page stays, disabled, until the app's page replaces it.
  const [started, setStarted] = useState<FirstPageHandoff['action'] | null>(null);
  const busy = started !== null;
  const passkeyUnavailable = usePasskeysUnavailable();

  const handOver = (form: HTMLFormElement, action: FirstPageHandoff['action']) => {
    const data = new FormData(form);
    const values = {
      login: String(data.get('login') ?? ''),
      password: String(data.get('password') ?? ''),
    };
    setStarted(action);
    onHandOver({ path: SIGN_IN_PATH, values, action });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) handOver(event.currentTarget, 'submit');
  };

  return (
    <Centered>
      <PageTitle title="Sign In" />
      <SignInFormCard
        onSubmit={onSubmit}
        busy={started === 'submit'}
        disabled={busy}
        onIntent={onIntent}
        alternative={
          <div className="grid gap-3">
            <Button
              type="button"
              variant="outline"
              disabled={busy || passkeyUnavailable !== null}
              aria-describedby={passkeyUnavailable ? 'passkey-sign-in-unavailable' : undefined}
              onPointerEnter={onIntent}
              onFocus={onIntent}
              onClick={(event) => {
                if (event.currentTarget.form) handOver(event.currentTarget.form, 'passkey');
              }}
            >
              <KeyRound aria-hidden="true" />
              Sign in with a passkey
            </Button>
            {passkeyUnavailable ? (
              <PasskeyUnavailableNote
                id="passkey-sign-in-unavailable"
                reason={passkeyUnavailable}
              />
            ) : null}
          </div>
        }
      />
    </Centered>
  );
}
