import { useSelector } from 'react-redux';
import { selectUserDetails, type RootStateWithAuth } from '@/lib/session/auth-slice';
import { missingPermissions, type PermissionCode } from '../lib/permission-gate';

const NONE: readonly string[] = [];

/** The signed-in user's permission codes (from the session). */
export function useHeldPermissions(): readonly string[] {
  return (
    useSelector(
      (state: RootStateWithAuth) => selectUserDetails({ auth: state.auth })?.permissions,
    ) ?? NONE
  );
}

/** The codes of `required` the signed-in user lacks (empty when allowed). */
export function useMissingPermissions(required: PermissionCode | readonly PermissionCode[]) {
  return missingPermissions(useHeldPermissions(), required);
}
