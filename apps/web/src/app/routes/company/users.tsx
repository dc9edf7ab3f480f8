import { useParams } from 'react-router';
import { UserCreate, UserDelete, UserEdit, UserView } from '@/features/users/components/user-pages';
import { UsersList } from '@/features/users/components/users-list';

const useId = () => useParams<'id'>().id ?? '';

export const UsersListRoute = () => <UsersList />;
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
