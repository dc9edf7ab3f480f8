import { zodResolver } from '@hookform/resolvers/zod';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { secondStepFormSchema } from '@pa/contracts/mfa';
import { fieldBinder } from '@/components/forms/field-binder';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { fieldErrors } from '@/lib/api/api-error';
import { useTotpConfirmMutation, type SignedIn } from '../api/two-step-api';
import { AppCodeField } from './app-code-field';

/** The secret in groups of four, as apps that take it typed show it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Scan (QR code) or type the secret, then confirm with a code from the app. `mfaToken` is set in a
 * forced enrolment: the confirmation then also signs in.
 */
export function TotpSetup({
  secret,
  otpauthUrl,
  mfaToken,
  onConfirmed,
}: {
  secret: string;
  otpauthUrl: string;
  mfaToken?: string;
  onConfirmed: (recoveryCodes: string[], signIn: SignedIn | null) => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [confirm, { error }] = useTotpConfirmMutation();
  useEffect(() => {
    void QRCode.toDataURL(otpauthUrl, { margin: 1, width: 192 }).then(setQr);
  }, [otpauthUrl]);
  const form = useForm<z.input<typeof secondStepFormSchema>, unknown, { code: string }>({
    resolver: zodResolver(secondStepFormSchema),
    defaultValues: { code: '' },
  });
  const submit = form.handleSubmit(async ({ code }) => {
    try {
      const answer = await confirm({ code, ...(mfaToken ? { mfaToken } : {}) }).unwrap();
      onConfirmed(answer.recoveryCodes, answer.signIn);
    } catch (err) {
      console.error('Authenticator confirm error:', err);
    }
  });
  const field = fieldBinder(form, fieldErrors(error));
  return (
    <div className="grid gap-4">
      <ol className="grid list-decimal gap-2 pl-5 text-sm">
        <li>Open your authenticator app and add an account.</li>
        <li>Scan this QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-center gap-4">
        {qr ? (
          <img
            src={qr}
            alt="QR code to add Power Analyzer to your authenticator app"
            width={192}
            height={192}
            className="rounded-md border bg-white"
          />
        ) : null}
        <div className="grid min-w-0 gap-1">
          <span className="text-sm text-muted-foreground" id="totp-secret-label">
            Key (if you cannot scan)
          </span>
          <code
            aria-labelledby="totp-secret-label"
            className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-all"
          >
            {grouped(secret)}
          </code>
        </div>
      </div>
      <form
        noValidate
        onSubmit={submit}
        className="grid gap-4"
        aria-label="Confirm authenticator app"
      >
        <RequestAlert error={error} fields={['code']} />
        <AppCodeField id="totp-code" {...field('code')} />
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Checking...' : 'Turn on'}
          </Button>
        </div>
      </form>
    </div>
  );
}
