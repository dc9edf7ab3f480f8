import { FormField, type FormFieldProps } from '@/components/ui/form-field';

type PresetProps = Omit<FormFieldProps, 'label' | 'type' | 'autoComplete'>;

/**
 * The current password, asked before a change that a stolen sign-in must not make on its own (a new
 * email, a new password, a second step added or turned off).
 */
export function CurrentPasswordField(props: PresetProps) {
  return (
    <FormField
      label="Current password"
      type="password"
      autoComplete="current-password"
      {...props}
    />
  );
}

/** A new password, or (`label`) its confirmation: the browser may offer to make one up and save it. */
export function NewPasswordField({
  label = 'New password',
  ...props
}: PresetProps & { label?: string }) {
  return <FormField label={label} type="password" autoComplete="new-password" {...props} />;
}
