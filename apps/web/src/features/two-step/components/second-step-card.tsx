import { zodResolver } from '@hookform/resolvers/zod';
import { startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { recoveryFormSchema, secondStepFormSchema, type MfaChallenge } from '@pa/contracts/mfa';
import { PageCard } from '@/components/forms/page-card';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useSecondStepMutation, useSecondStepPasskeyOptionsMutation } from '../api/two-step-api';
import { passkeyProblem, useStoreSignIn } from '../lib/signed-in';

type Mode = 'code' | 'recovery';

/** The sign-in page's second step: a code from the app or a recovery code (switchable), or a passkey. */
export function SecondStepCard({
  challenge,
  onCancel,
}: {
  challenge: MfaChallenge;
  onCancel: () => void;
}) {
  const hasApp = challenge.methods.includes('totp');
  const hasPasskey = challenge.methods.includes('passkey');
  const [mode, setMode] = useState<Mode>('code');
  const [secondStep, { error }] = useSecondStepMutation();
  const [passkeyOptions] = useSecondStepPasskeyOptionsMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const store = useStoreSignIn();
  const passkeyUnavailable = usePasskeysUnavailable();

  const usePasskey = async () => {
    setProblem(null);
    try {
      const optionsJSON = await passkeyOptions(challenge.mfaToken).unwrap();
      const passkey = await startAuthentication({ optionsJSON });
      store(await secondStep({ mfaToken: challenge.mfaToken, passkey }).unwrap());
    } catch (err) {
      if (err instanceof Error) setProblem(passkeyProblem(err));
    }
  };

  return (
    <PageCard
      title="Second step"
      description={
        hasApp
          ? mode === 'code'
            ? 'Enter the 6-digit code from your authenticator app.'
            : 'Enter one of the recovery codes you saved. Each works once.'
          : 'Confirm with your passkey.'
      }
      contentClassName="grid gap-4"
    >
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
      {hasApp ? (
        <CodeForm
          key={mode}
          mode={mode}
          onSubmit={async (body) =>
            store(await secondStep({ mfaToken: challenge.mfaToken, ...body }).unwrap())
          }
        />
      ) : null}
      {hasApp ? (
        <Button
          type="button"
          variant="link"
          className="justify-self-center"
          onClick={() => setMode(mode === 'code' ? 'recovery' : 'code')}
        >
          {mode === 'code' ? 'Use a recovery code instead' : 'Use a code from your app instead'}
        </Button>
      ) : null}
      {hasPasskey ? (
        <Button
          type="button"
          variant={hasApp ? 'outline' : 'default'}
          onClick={usePasskey}
          disabled={passkeyUnavailable !== null}
          aria-describedby={passkeyUnavailable ? 'second-step-passkey-unavailable' : undefined}
        >
          Use a passkey
        </Button>
      ) : null}
      {hasPasskey && passkeyUnavailable ? (
        <PasskeyUnavailableNote id="second-step-passkey-unavailable" reason={passkeyUnavailable} />
      ) : null}
      <Button type="button" variant="ghost" onClick={onCancel}>
        Back to sign in
      </Button>
    </PageCard>
  );
}

type CodeBody = { code: string } | { recoveryCode: string };

function CodeForm({ mode, onSubmit }: { mode: Mode; onSubmit: (body: CodeBody) => Promise<void> }) {
  const schema = mode === 'code' ? secondStepFormSchema : recoveryFormSchema;
  const field = mode === 'code' ? 'code' : 'recoveryCode';
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, CodeBody>({
    resolver: zodResolver(schema) as never,
    defaultValues: { [field]: '' },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await onSubmit(body);
    } catch (err) {
      console.error('Second-step error:', err);
    }
  });
  const fieldErrors = errors as Record<string, { message?: string } | undefined>;
  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Second step">
      <FormField
        id={field}
        label={mode === 'code' ? 'Authentication code' : 'Recovery code'}
        autoComplete="one-time-code"
        inputMode={mode === 'code' ? 'numeric' : 'text'}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the step's one task is this field
        autoFocus
        error={fieldErrors[field]?.message}
        {...register(field as never)}
      />
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {isSubmitting ? 'Checking...' : 'Verify'}
      </Button>
    </form>
  );
}
