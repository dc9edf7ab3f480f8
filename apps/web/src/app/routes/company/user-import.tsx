import { ImportUsersPage } from '@/features/user-import/import-users-page';

export const UserImportRoute = () => <ImportUsersPage />;
