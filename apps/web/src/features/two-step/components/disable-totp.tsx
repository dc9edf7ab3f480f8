import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { totpDisableSchema } from '@pa/contracts/mfa';
import { Button } from '@/components/ui/button';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { useTotpDisableMutation } from '../api/two-step-api';

/** Turning the app off takes the password and a code; not while it is a required last second step. */
export function DisableTotp({ left, required }: { left: number; required: boolean }) {
  const [disable, { error }] = useTotpDisableMutation();
  const { register, handleSubmit, formState } = useForm<
    z.input<typeof totpDisableSchema>,
    unknown,
    z.output<typeof totpDisableSchema>
  >({ resolver: zodResolver(totpDisableSchema), defaultValues: { currentPassword: '', code: '' } });
  const submit = handleSubmit(async (body) => {
    try {
      await disable(body).unwrap();
      toast.success('Authenticator app turned off.');
    } catch (err) {
      console.error('Authenticator disable error:', err);
    }
  });
  const server = fieldErrors(error);
  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid gap-4"
      aria-label="Turn off authenticator app"
    >
      <p className="text-sm">
        {left} recovery code{left === 1 ? '' : 's'} left.
        {required
          ? ' Your company requires a second step: add a passkey before turning the app off.'
          : ''}
      </p>
      {error && !server.code && !server.currentPassword ? (
        <FormAlert>{errorMessage(error)}</FormAlert>
      ) : null}
      <FormField
        id="disable-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={formState.errors.currentPassword?.message ?? server.currentPassword}
        {...register('currentPassword')}
      />
      <FormField
        id="disable-code"
        label="Code from the app"
        autoComplete="one-time-code"
        inputMode="numeric"
        error={formState.errors.code?.message ?? server.code}
        {...register('code')}
      />
      <div>
        <Button type="submit" variant="outline" disabled={formState.isSubmitting || required}>
          Turn off
        </Button>
      </div>
    </form>
  );
}
