import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useMfaStatusQuery, useRemovePasskeyMutation } from '../api/two-step-api';
import { AddPasskeyForm } from './add-passkey-form';
import { RenamePasskeyForm } from './rename-passkey-form';

const date = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : 'never';

/** The account page's passkeys: a sign-in on their own, or the second step after the password. */
export function PasskeysSection() {
  const { data } = useMfaStatusQuery();
  const [remove, { error }] = useRemovePasskeyMutation();
  const keys = data?.passkeys ?? [];
  const onlyStep = Boolean(data?.required && !data.totp && keys.length === 1);
  const [renaming, setRenaming] = useState<string | null>(null);
  const doneRenaming = (id: string) => {
    setRenaming(null);
    // the keyboard goes back to the row's Rename button once it is drawn again
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`[data-rename-passkey="${id}"]`)?.focus(),
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Passkeys</CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or device PIN instead of a password, or use one as
          your second step.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
        {keys.length > 0 ? (
          <ul aria-label="Your passkeys" className="grid gap-2">
            {keys.map((key) => (
              <li
                key={key._id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2"
              >
                {renaming === key._id ? (
                  <RenamePasskeyForm passkey={key} onDone={() => doneRenaming(key._id)} />
                ) : (
                  <>
                    <span className="grid">
                      <span className="font-medium break-all">{key.name}</span>
                      <span className="text-xs text-muted-foreground">
                        Added {date(key.createdAt)} · last used {date(key.lastUsedAt)}
                      </span>
                    </span>
                    <span className="flex gap-2">
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        data-rename-passkey={key._id}
                        aria-label={`Rename passkey ${key.name}`}
                        onClick={() => setRenaming(key._id)}
                      >
                        <Pencil aria-hidden="true" />
                        Rename
                      </Button>
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        disabled={onlyStep}
                        aria-label={`Remove passkey ${key.name}`}
                        onClick={() =>
                          void remove(key._id)
                            .unwrap()
                            .then(() => toast.success('Passkey removed.'))
                            .catch((err: unknown) => console.error('Passkey remove error:', err))
                        }
                      >
                        <Trash2 aria-hidden="true" />
                        Remove
                      </Button>
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        )}
        <AddPasskeyForm onAdded={() => toast.success('Passkey added.')} />
      </CardContent>
    </Card>
  );
}
