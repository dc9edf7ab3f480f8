import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSelector } from 'react-redux';
import { toast } from 'sonner';
import { z } from 'zod';
import { fieldBinder } from '@/components/forms/field-binder';
import { CurrentPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldErrors } from '@/lib/api/api-error';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';
import { useMfaStatusQuery, useTotpSetupMutation } from '../api/two-step-api';
import { AuthenticatorOnActions } from './authenticator-on-actions';
import { RecoveryCodes } from './recovery-codes';
import { TotpSetup } from './totp-setup';

const passwordForm = z.object({
  currentPassword: z.string().min(1, 'Enter your current password'),
});

/** The account page's authenticator app: set up (password, QR, confirm, recovery codes) or turn off. */
export function AuthenticatorSection() {
  const { data } = useMfaStatusQuery();
  const userName = useSelector(selectUserDetails)?.userName ?? '';
  const [setup, setupState] = useTotpSetupMutation();
  const [codes, setCodes] = useState<string[] | null>(null);
  const started = setupState.data;
  const form = useForm({
    resolver: zodResolver(passwordForm),
    defaultValues: { currentPassword: '' },
  });
  const start = form.handleSubmit(async (body) => {
    await setup(body)
      .unwrap()
      .catch((err: unknown) => console.error('Authenticator setup error:', err));
  });
  const field = fieldBinder(form, fieldErrors(setupState.error));

  let body: React.ReactNode;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        userName={userName}
        onDone={() => {
          setCodes(null);
          setupState.reset();
        }}
      />
    );
  } else if (data?.totp) {
    body = (
      <AuthenticatorOnActions
        left={data.recoveryCodesLeft}
        required={data.required && data.passkeys.length === 0}
        onNewCodes={setCodes}
      />
    );
  } else if (started) {
    body = (
      <TotpSetup
        secret={started.secret}
        otpauthUrl={started.otpauthUrl}
        onConfirmed={(recoveryCodes) => {
          setCodes(recoveryCodes);
          toast.success('Authenticator app turned on.');
        }}
      />
    );
  } else {
    body = (
      <form
        noValidate
        onSubmit={start}
        className="grid gap-4"
        aria-label="Set up authenticator app"
      >
        <RequestAlert error={setupState.error} fields={['currentPassword']} />
        <CurrentPasswordField id="totp-password" {...field('currentPassword')} />
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            Set up authenticator app
          </Button>
        </div>
      </form>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Authenticator app</CardTitle>
        <CardDescription>
          {data?.totp
            ? 'On: signing in asks for a code from your app after your password.'
            : 'Ask for a code from an app such as Google Authenticator or 1Password after your password.'}
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
