import type { FormEventHandler, ReactNode } from 'react';
import { PageCard } from '@/components/forms/page-card';
import { usePublicLinks } from '@/components/layouts/public-links';
import { Button } from '@/components/ui/button';
import { FormField, type FormFieldProps } from '@/components/ui/form-field';

/*
 * The sign-in and forgot-password cards as drawn. Two pages use each: the app's form (SignInCard,
 * ForgotPasswordCard) and the page a signed-out visitor's first load draws before the app
 * (app/first-sign-in.tsx, app/first-forgot-password.tsx), so this file stays light: no form
 * library, no store, no router (its links come from usePublicLinks).
 */

/** What a form passes to one of its fields: its registration and error (the app's form). */
type FieldWiring = Partial<FormFieldProps>;

interface PublicFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The request is on its way: the submit button says so. */
  busy: boolean;
  /** The submit button is off (by default while `busy`). */
  disabled?: boolean;
  /** The first page's: the visitor started to fill the form in, so the app starts to load. */
  onIntent?: () => void;
}

/** A link under a signed-out page's form ("Forgot your password?", "Back to sign in"). */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const { Link } = usePublicLinks();
  return (
    <Link to={to} className="text-center text-sm text-primary underline-offset-4 hover:underline">
      {children}
    </Link>
  );
}

/** What a signed-out page says once its one task is done ("Your password has been changed."). */
export function DoneNote({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
      {children}
    </p>
  );
}

function SubmitButton({
  busy,
  disabled = busy,
  onIntent,
  label,
  busyLabel,
}: Omit<PublicFormProps, 'onSubmit'> & { label: string; busyLabel: string }) {
  return (
    <Button
      type="submit"
      disabled={disabled}
      className="w-full"
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      {busy ? busyLabel : label}
    </Button>
  );
}

/** The password step's card; `alternative` stands under the button ("Sign in with a passkey"). */
export function SignInFormCard({
  login,
  password,
  alert,
  alternative,
  onSubmit,
  onIntent,
  ...submit
}: PublicFormProps & {
  login?: FieldWiring;
  password?: FieldWiring;
  alert?: ReactNode;
  alternative?: ReactNode;
}) {
  return (
    <PageCard title="Sign In" description="Use your user name or email and your password.">
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Sign in">
        {alert}
        <FormField
          id="login"
          name="login"
          label="User name or email"
          autoComplete="username"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
          autoFocus
          onInput={onIntent}
          onKeyDown={onIntent}
          {...login}
        />
        <FormField
          id="password"
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          onInput={onIntent}
          onKeyDown={onIntent}
          {...password}
        />
        <SubmitButton {...submit} onIntent={onIntent} label="Sign In" busyLabel="Signing In..." />
        {alternative}
        <AuthLink to="/auth/forgot-password">Forgot your password?</AuthLink>
      </form>
    </PageCard>
  );
}

/** The forgot-password card; `done` replaces the form once the address is sent. */
export function ForgotPasswordFormCard({
  email,
  done,
  onSubmit,
  onIntent,
  ...submit
}: PublicFormProps & { email?: FieldWiring; done?: ReactNode }) {
  return (
    <PageCard
      title="Forgot password"
      description="We will email you a link to choose a new password."
      contentClassName="grid gap-4"
    >
      {done ?? (
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Forgot password">
          <FormField
            id="email"
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form; nothing precedes it to skip
            autoFocus
            onInput={onIntent}
            onKeyDown={onIntent}
            {...email}
          />
          <SubmitButton
            {...submit}
            onIntent={onIntent}
            label="Send reset link"
            busyLabel="Sending..."
          />
        </form>
      )}
      <AuthLink to="/auth/signin">Back to sign in</AuthLink>
    </PageCard>
  );
}
