import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** What a field's control carries so that its error is announced with it. */
interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * One field's label, control and error message, the error wired up for assistive technology:
 * `children` draws the control with the props it is given.
 */
function FieldFrame({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div data-slot="form-field" className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type FormFieldProps = React.ComponentProps<typeof Input> & {
  label: string;
  error?: string;
  id: string;
};

/** A labelled input with its error message wired up for assistive technology. */
function FormField({ label, error, id, ...props }: FormFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      {(control) => <Input {...control} {...props} />}
    </FieldFrame>
  );
}

function FormAlert({ children }: { children: React.ReactNode }) {
  return (
    <div
      role="alert"
      data-slot="form-alert"
      className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-red-800 dark:text-red-200"
    >
      {children}
    </div>
  );
}

export { FieldFrame, FormAlert, FormField, type FormFieldProps };
