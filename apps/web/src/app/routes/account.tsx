import { PageTitle } from '@/components/page-title';
import { AccountEditForm } from '@/features/account/components/account-edit-form';
import { AccountView } from '@/features/account/components/account-view';
import { ChangePasswordCard } from '@/features/account/components/change-password-form';
import { AuthenticatorSection } from '@/features/two-step/components/authenticator-section';
import { PasskeysSection } from '@/features/two-step/components/passkeys-section';

export const AccountViewRoute = () => (
  <>
    <PageTitle title="Your account" />
    <div className="grid max-w-3xl gap-6">
      <AccountView />
      <AuthenticatorSection />
      <PasskeysSection />
    </div>
  </>
);
export const AccountEditRoute = () => (
  <>
    <PageTitle title="Edit account" />
    <AccountEditForm />
  </>
);
export const ChangePasswordRoute = () => (
  <>
    <PageTitle title="Change password" />
    <ChangePasswordCard />
  </>
);
