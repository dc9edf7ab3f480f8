import { useParams } from 'react-router';
import {
  RoleCreate,
  RoleDelete,
  RoleEdit,
  RoleView,
} from '@/features/company/components/roles/role-pages';
import { RoleMatrix } from '@/features/company/components/roles/role-matrix';
import { RolesList } from '@/features/company/components/roles/roles-list';

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
