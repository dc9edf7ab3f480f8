import {
  get,
  type FieldError,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';

/**
 * Ties FormFields to a react-hook-form form: `field(name)` is the field's registration and its one
 * error, the form's own check first, else what the server said about that field (`fieldErrors`).
 */
export function fieldBinder<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>,
  server: Record<string, string> = {},
) {
  const { errors } = form.formState;
  return (name: Path<T>) => ({
    ...form.register(name),
    error: (get(errors, name) as FieldError | undefined)?.message ?? server[name],
  });
}
