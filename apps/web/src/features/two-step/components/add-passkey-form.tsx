import { zodResolver } from '@hookform/resolvers/zod';
import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { passkeyNameSchema } from '@pa/contracts/mfa';
import { fieldBinder } from '@/components/forms/field-binder';
import { CurrentPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { PasskeyUnavailableNote, usePasskeysUnavailable } from '@/components/passkey-unavailable';
import { Button } from '@/components/ui/button';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { fieldErrors } from '@/lib/api/api-error';
import {
  useAddPasskeyMutation,
  usePasskeyOptionsMutation,
  type SignedIn,
} from '../api/two-step-api';
import { passkeyProblem } from '../lib/signed-in';

const signedInForm = z.object({
  name: passkeyNameSchema,
  currentPassword: z.string().min(1, 'Enter your current password'),
});
const enrolmentForm = z.object({ name: passkeyNameSchema, currentPassword: z.string() });
type PasskeyForm = z.infer<typeof signedInForm>;

/**
 * Names and creates a passkey on this device. Signed in, the current password comes first (a stolen
 * session must not add a way in); in a forced enrolment the `mfaToken` stands for it.
 */
export function AddPasskeyForm({
  mfaToken,
  onAdded,
}: {
  mfaToken?: string;
  onAdded: (signIn: SignedIn | null) => void;
}) {
  const [options, optionsState] = usePasskeyOptionsMutation();
  const [add, addState] = useAddPasskeyMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const unavailable = usePasskeysUnavailable();
  const form = useForm<PasskeyForm>({
    resolver: zodResolver(mfaToken ? enrolmentForm : signedInForm),
    defaultValues: { name: '', currentPassword: '' },
  });
  const submit = form.handleSubmit(async ({ name, currentPassword }) => {
    setProblem(null);
    try {
      const proof = mfaToken ? { mfaToken } : { currentPassword };
      const optionsJSON = await options(proof).unwrap();
      const response = await startRegistration({ optionsJSON });
      const answer = await add({ name, response, ...(mfaToken ? { mfaToken } : {}) }).unwrap();
      form.reset();
      onAdded(answer.signIn);
    } catch (err) {
      if (err instanceof Error) setProblem(passkeyProblem(err));
    }
  });
  const error = optionsState.error ?? addState.error;
  const field = fieldBinder(form, fieldErrors(error));
  const { isSubmitting } = form.formState;
  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Add a passkey">
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <RequestAlert error={error} fields={['currentPassword']} />
      <FormField
        id="passkey-name"
        label="Passkey name"
        placeholder="e.g. Work laptop"
        {...field('name')}
      />
      {mfaToken ? null : (
        <CurrentPasswordField id="passkey-password" {...field('currentPassword')} />
      )}
      <div className="grid justify-items-start gap-2">
        <Button
          type="submit"
          disabled={isSubmitting || unavailable !== null}
          aria-describedby={unavailable ? 'add-passkey-unavailable' : undefined}
        >
          {isSubmitting ? 'Waiting for your device...' : 'Add passkey'}
        </Button>
        {unavailable ? (
          <PasskeyUnavailableNote id="add-passkey-unavailable" reason={unavailable} />
        ) : null}
      </div>
    </form>
  );
}
