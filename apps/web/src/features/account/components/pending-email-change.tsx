import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import {
  useCancelEmailChangeMutation,
  usePendingEmailChangeQuery,
  useResendEmailChangeMutation,
} from '../api/account-api';

const until = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * An email change waiting for the new address (ADR 026): where to, until when the link works, and
 * ways to send the link again or cancel. Nothing when none is pending.
 */
export function PendingEmailChange({ currentEmail }: { currentEmail: string }) {
  const { data } = usePendingEmailChangeQuery();
  const [resend, resendState] = useResendEmailChangeMutation();
  const [cancel, cancelState] = useCancelEmailChangeMutation();
  const pending = data?.pending;
  if (!pending) return null;
  const error = resendState.error ?? cancelState.error;
  const busy = resendState.isLoading || cancelState.isLoading;
  return (
    <section
      aria-labelledby="pending-email-title"
      className="grid gap-3 rounded-md border border-amber-600/40 bg-amber-50 p-4 text-sm dark:bg-amber-950/30"
    >
      <h2 id="pending-email-title" className="font-semibold">
        Email change pending
      </h2>
      <p>
        Your email changes to <strong className="break-all">{pending.newEmail}</strong> when you
        open the link we sent there (it works until {until(pending.expiresAt)}). Until then it stays{' '}
        <span className="break-all">{currentEmail}</span>.
      </p>
      {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
      <div className="flex flex-wrap gap-2">
        {(
          [
            ['Send the link again', resend, `A new link is on its way to ${pending.newEmail}.`],
            ['Cancel the change', cancel, 'Email change cancelled; your email stays as it is.'],
          ] as const
        ).map(([label, call, done]) => (
          <Button
            key={label}
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            // a failure shows in the alert above, from the mutation's state
            onClick={() =>
              void call()
                .unwrap()
                .then(() => toast.success(done))
                .catch(() => {})
            }
          >
            {label}
          </Button>
        ))}
      </div>
    </section>
  );
}
