import { zodResolver } from '@hookform/resolvers/zod';
import { Check, X } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { passkeyNameSchema, type Passkey } from '@pa/contracts/mfa';
import { fieldBinder } from '@/components/forms/field-binder';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { fieldErrors } from '@/lib/api/api-error';
import { useRenamePasskeyMutation } from '../api/two-step-api';

const renameForm = z.object({ name: passkeyNameSchema });

/** A passkey's new name, in place of its row; Escape or Cancel keeps the old one. */
export function RenamePasskeyForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const [rename, { error }] = useRenamePasskeyMutation();
  const form = useForm<z.infer<typeof renameForm>>({
    resolver: zodResolver(renameForm),
    defaultValues: { name: passkey.name },
  });
  const { setFocus } = form;
  useEffect(() => setFocus('name', { shouldSelect: true }), [setFocus]);
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await rename({ id: passkey._id, name }).unwrap();
      toast.success('Passkey renamed.');
      onDone();
    } catch {
      // shown below from the mutation's error
    }
  });
  const field = fieldBinder(form, fieldErrors(error));
  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid w-full gap-2"
      aria-label={`Rename passkey ${passkey.name}`}
    >
      <RequestAlert error={error} fields={['name']} />
      <FormField
        id={`passkey-rename-${passkey._id}`}
        label="New name"
        {...field('name')}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDone();
        }}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={form.formState.isSubmitting}>
          <Check aria-hidden="true" /> Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          <X aria-hidden="true" /> Cancel
        </Button>
      </div>
    </form>
  );
}
