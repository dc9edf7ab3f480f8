import { useParams } from 'react-router';
import { RoleCreate, RoleDelete, RoleEdit, RoleView } from '@/features/roles/components/role-pages';
import { RoleMatrix } from '@/features/roles/components/role-matrix';
import { RolesList } from '@/features/roles/components/roles-list';

const useId = () => useParams<'id'>().id ?? '';

export const RolesListRoute = () => <RolesList />;
export const RoleMatrixRoute = () => <RoleMatrix />;
export const RoleCreateRoute = () => <RoleCreate />;
export function RoleViewRoute() {
  const id = useId();
  return <RoleView key={id} id={id} />;
}
export function RoleEditRoute() {
  const id = useId();
  return <RoleEdit key={id} id={id} />;
}
export function RoleDeleteRoute() {
  const id = useId();
  return <RoleDelete key={id} id={id} />;
}
