import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { totpDisableSchema } from '@pa/contracts/mfa';
import { fieldBinder } from '@/components/forms/field-binder';
import { CurrentPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { fieldErrors } from '@/lib/api/api-error';
import { useRenewRecoveryCodesMutation, useTotpDisableMutation } from '../api/two-step-api';
import { AppCodeField } from './app-code-field';

/**
 * With the app on, the password and a code either replace the recovery codes (`onNewCodes` shows
 * them) or turn the app off — not while it is a required last second step.
 */
export function AuthenticatorOnActions({
  left,
  required,
  onNewCodes,
}: {
  left: number;
  required: boolean;
  onNewCodes: (codes: string[]) => void;
}) {
  const [disable, disableState] = useTotpDisableMutation();
  const [renew, renewState] = useRenewRecoveryCodesMutation();
  // which button sent the form, so which call's error is shown
  const [sent, setSent] = useState<'renew' | 'disable'>('disable');
  const error = sent === 'renew' ? renewState.error : disableState.error;
  const form = useForm<
    z.input<typeof totpDisableSchema>,
    unknown,
    z.output<typeof totpDisableSchema>
  >({ resolver: zodResolver(totpDisableSchema), defaultValues: { currentPassword: '', code: '' } });
  const submit = form.handleSubmit(async (body, event) => {
    const submitter = (event?.nativeEvent as SubmitEvent | undefined)?.submitter;
    const action = submitter?.getAttribute('value') === 'renew' ? 'renew' : 'disable';
    setSent(action);
    try {
      if (action === 'renew') {
        const { recoveryCodes } = await renew(body).unwrap();
        toast.success('New recovery codes made; the old ones no longer work.');
        onNewCodes(recoveryCodes);
      } else {
        await disable(body).unwrap();
        toast.success('Authenticator app turned off.');
      }
    } catch (err) {
      console.error('Authenticator change error:', err);
    }
  });
  const field = fieldBinder(form, fieldErrors(error));
  const { isSubmitting } = form.formState;
  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid gap-4"
      aria-label="Recovery codes and turning off the authenticator app"
    >
      <p className="text-sm">
        {left} recovery code{left === 1 ? '' : 's'} left.
        {required
          ? ' Your company requires a second step: add a passkey before turning the app off.'
          : ''}
      </p>
      <RequestAlert error={error} fields={['code', 'currentPassword']} />
      <CurrentPasswordField id="disable-password" {...field('currentPassword')} />
      <AppCodeField id="disable-code" {...field('code')} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="outline" value="renew" disabled={isSubmitting}>
          Get new recovery codes
        </Button>
        <Button type="submit" variant="outline" value="disable" disabled={isSubmitting || required}>
          Turn off
        </Button>
      </div>
    </form>
  );
}
