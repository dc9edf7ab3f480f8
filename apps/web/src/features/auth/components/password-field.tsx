import { Eye, EyeOff } from 'lucide-react';
import * as React from 'react';
import { FieldFrame } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

/**
 * A labelled password input with a button that shows what was typed (one field instead of a
 * confirmation field: the person can read it back), its error wired up like FormField's.
 */
export function PasswordField({
  label,
  error,
  id,
  ...props
}: Omit<React.ComponentProps<typeof Input>, 'type'> & {
  label: string;
  error?: string;
  id: string;
}) {
  const [visible, setVisible] = React.useState(false);
  return (
    <FieldFrame id={id} label={label} error={error}>
      {(control) => (
        <div className="relative">
          <Input {...control} type={visible ? 'text' : 'password'} className="pr-10" {...props} />
          <button
            type="button"
            aria-label="Show password"
            aria-pressed={visible}
            aria-controls={id}
            onClick={() => setVisible((shown) => !shown)}
            className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none"
          >
            {visible ? (
              <EyeOff aria-hidden className="size-4" />
            ) : (
              <Eye aria-hidden className="size-4" />
            )}
          </button>
        </div>
      )}
    </FieldFrame>
  );
}
