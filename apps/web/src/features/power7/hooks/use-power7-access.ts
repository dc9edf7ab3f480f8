import { useSelector } from 'react-redux';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';

import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';

/** Permission codes of the Power 7 service (checked again by the service on every call). */
export { POWER7_PERMISSIONS };

export interface Power7Access {
  canRun: boolean;
  canDownload: boolean;
  canClear: boolean;
}

export function accessOf(permissions: readonly string[] | undefined): Power7Access {
  const held = new Set(permissions ?? []);
  return {
    canRun: held.has(POWER7_PERMISSIONS.run),
    canDownload: held.has(POWER7_PERMISSIONS.download),
    canClear: held.has(POWER7_PERMISSIONS.clear),
  };
}

/** What the signed-in user may do in the tool, from the permissions in their session. */
export function usePower7Access(): Power7Access {
  const details = useSelector(selectUserDetails);
  return accessOf(details?.permissions);
}
