import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { changePasswordFormSchema, type ChangePasswordForm } from '@pa/contracts/accounts';
import { fieldBinder } from '@/components/forms/field-binder';
import { PageCard } from '@/components/forms/page-card';
import { CurrentPasswordField, NewPasswordField } from '@/components/forms/password-fields';
import { RequestAlert } from '@/components/forms/request-alert';
import { Button } from '@/components/ui/button';
import { fieldErrors } from '@/lib/api/api-error';
import { useChangePasswordMutation } from '../api/account-api';

export function ChangePasswordCard() {
  const [changePassword, { error, reset: forgetAnswer }] = useChangePasswordMutation();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  // A new attempt (valid or not) starts without the last answer's message.
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    forgetAnswer();
    try {
      await changePassword({ currentPassword, newPassword }).unwrap();
      form.reset();
      toast.success('Your password has been changed.');
    } catch (err) {
      console.error('Change-password error:', err);
    }
  }, forgetAnswer);

  const field = fieldBinder(form, fieldErrors(error));
  const { isSubmitting } = form.formState;
  return (
    <PageCard title="Change password" description="At least 12 characters." className="max-w-2xl">
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Change password">
        {/* A message the server tied to a field shows there only, not a second time above the form. */}
        <RequestAlert error={error} />
        <CurrentPasswordField id="currentPassword" {...field('currentPassword')} />
        <NewPasswordField id="newPassword" {...field('newPassword')} />
        <NewPasswordField
          id="confirmPassword"
          label="Confirm new password"
          {...field('confirmPassword')}
        />
        <div>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Change password'}
          </Button>
        </div>
      </form>
    </PageCard>
  );
}
