import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { selectUserDetails, setUserDetails } from '@/lib/signed-in/auth-slice';
import { useSignedInDetailsQuery } from '@/lib/api/company-api';
import { missingPermissions, type PermissionCode } from '@/lib/permission-gate';

const NONE: readonly string[] = [];

/**
 * The signed-in user's permission codes: the session's, kept current with the server's answer
 * (which changes when an administrator, perhaps this user, changes roles or permissions).
 */
export function useHeldPermissions(): readonly string[] {
  const dispatch = useDispatch();
  const session = useSelector(selectUserDetails)?.permissions;
  const { data } = useSignedInDetailsQuery();
  const fresh = data?.permissions;
  useEffect(() => {
    if (fresh && fresh.join() !== session?.join()) dispatch(setUserDetails({ permissions: fresh }));
  }, [dispatch, fresh, session]);
  return fresh ?? session ?? NONE;
}

/** The codes of `required` the signed-in user lacks (empty when allowed). */
export function useMissingPermissions(required: PermissionCode | readonly PermissionCode[]) {
  return missingPermissions(useHeldPermissions(), required);
}
