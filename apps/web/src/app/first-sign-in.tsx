import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { Centered } from '@/components/layouts/centered';
import { usePublicLinks } from '@/components/layouts/public-links';
import { PageTitle } from '@/components/page-title';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
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
 * (`SignInCard`), whose buttons hand what was typed over to it. Validation, the request, the second
 * step and passkeys all run in the app's page, so they behave exactly as after any other way in.
 */
export function FirstSignIn({ onHandOver, onIntent }: FirstSignInProps) {
  const { Link } = usePublicLinks();
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
      <Card>
        <CardHeader>
          <CardTitle level={1}>Sign In</CardTitle>
          <CardDescription>Use your user name or email and your password.</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Sign in">
            <FormField
              id="login"
              name="login"
              label="User name or email"
              autoComplete="username"
              onInput={onIntent}
              onKeyDown={onIntent}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- as on the app's sign-in card
              autoFocus
            />
            <FormField
              id="password"
              name="password"
              label="Password"
              type="password"
              autoComplete="current-password"
              onInput={onIntent}
              onKeyDown={onIntent}
            />
            <Button
              type="submit"
              disabled={busy}
              className="w-full"
              onPointerEnter={onIntent}
              onFocus={onIntent}
            >
              {started === 'submit' ? 'Signing In...' : 'Sign In'}
            </Button>
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
            <Link
              to="/auth/forgot-password"
              className="text-center text-sm text-primary underline-offset-4 hover:underline"
            >
              Forgot your password?
            </Link>
          </form>
        </CardContent>
      </Card>
    </Centered>
  );
}
