import { ImportUsersPage } from '@/features/users/import/import-users-page';

export const UserImportRoute = () => <ImportUsersPage />;
