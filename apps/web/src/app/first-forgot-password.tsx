import { useState, type FormEvent } from 'react';
import { Centered } from '@/components/layouts/centered';
import { usePublicLinks } from '@/components/layouts/public-links';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
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
  const { Link } = usePublicLinks();
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
      <Card>
        <CardHeader>
          <CardTitle level={1}>Forgot password</CardTitle>
          <CardDescription>We will email you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Forgot password">
            <FormField
              id="email"
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- as on the app's card
              autoFocus
              onInput={onIntent}
              onKeyDown={onIntent}
            />
            <Button
              type="submit"
              disabled={sending}
              className="w-full"
              onPointerEnter={onIntent}
              onFocus={onIntent}
            >
              {sending ? 'Sending...' : 'Send reset link'}
            </Button>
          </form>
          <Link
            to="/auth/signin"
            className="text-center text-sm text-primary underline-offset-4 hover:underline"
          >
            Back to sign in
          </Link>
        </CardContent>
      </Card>
    </Centered>
  );
}
