import { AccountEditForm } from '@/features/account/components/account-edit-form';
import { AccountView } from '@/features/account/components/account-view';
import { ChangePasswordCard } from '@/features/account/components/change-password-form';

export const AccountViewRoute = () => <AccountView />;
export const AccountEditRoute = () => <AccountEditForm />;
export const ChangePasswordRoute = () => <ChangePasswordCard />;
