import { FormField, type FormFieldProps } from '@/components/ui/form-field';

/** The 6-digit code an authenticator app shows, asked to turn the app on, to renew codes or to turn it off. */
export function AppCodeField(props: Omit<FormFieldProps, 'label' | 'autoComplete' | 'inputMode'>) {
  return (
    <FormField
      label="Code from the app"
      autoComplete="one-time-code"
      inputMode="numeric"
      {...props}
    />
  );
}
