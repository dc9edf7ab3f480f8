import { useParams } from 'react-router';
import {
  PermissionCreate,
  PermissionDelete,
  PermissionEdit,
  PermissionView,
} from '@/features/permissions/components/permission-pages';
import { PermissionsList } from '@/features/permissions/components/permissions-list';

const useId = () => useParams<'id'>().id ?? '';

export const PermissionsListRoute = () => <PermissionsList />;
export const PermissionCreateRoute = () => <PermissionCreate />;
export function PermissionViewRoute() {
  const id = useId();
  return <PermissionView key={id} id={id} />;
}
export function PermissionEditRoute() {
  const id = useId();
  return <PermissionEdit key={id} id={id} />;
}
export function PermissionDeleteRoute() {
  const id = useId();
  return <PermissionDelete key={id} id={id} />;
}
