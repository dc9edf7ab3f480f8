import { useParams } from 'react-router';
import { UserCreate, UserDelete, UserEdit, UserView } from '@/features/users/components/user-pages';
import { InviteUser } from '@/features/users/components/invitations/invite-user-form';
import { PendingInvitations } from '@/features/users/components/invitations/pending-invitations';
import { UsersList } from '@/features/users/components/users-list';

const useId = () => useParams<'id'>().id ?? '';

export const UsersListRoute = () => (
  // One shrinkable column: wide tables scroll inside their own regions, never the page.
  <div className="grid min-w-0 grid-cols-1 gap-6">
    <UsersList />
    <PendingInvitations />
  </div>
);
export const UserInviteRoute = () => <InviteUser />;
export const UserCreateRoute = () => <UserCreate />;
export function UserViewRoute() {
  const id = useId();
  return <UserView key={id} id={id} />;
}
export function UserEditRoute() {
  const id = useId();
  return <UserEdit key={id} id={id} />;
}
export function UserDeleteRoute() {
  const id = useId();
  return <UserDelete key={id} id={id} />;
}
