import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** A labelled input with its error message wired up for assistive technology. */
function FormField({
  label,
  error,
  id,
  ...props
}: React.ComponentProps<typeof Input> & { label: string; error?: string; id: string }) {
  const errorId = `${id}-error`;
  return (
    <div data-slot="form-field" className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...props}
      />
      {error ? (
        <p id={errorId} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
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

export { FormAlert, FormField };
