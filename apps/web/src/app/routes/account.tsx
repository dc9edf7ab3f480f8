import { PageTitle } from '@/components/page-title';
import { AccountEditForm } from '@/features/account/components/account-edit-form';
import { AccountView } from '@/features/account/components/account-view';
import { ChangePasswordCard } from '@/features/account/components/change-password-form';

export const AccountViewRoute = () => (
  <>
    <PageTitle title="Your account" />
    <AccountView />
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
