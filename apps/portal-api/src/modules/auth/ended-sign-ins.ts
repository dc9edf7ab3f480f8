import { endedSignInKeys } from '@pa/server-kit/ended-sign-ins';
import type { PortalDb } from '../../db/client';

/**
 * Keys (`endedSignInKey`: a hash of the id, which hides its sign-in time) of the sign-ins that ended
 * within the last `seconds`: what the portal publishes beside its JWKS. The query is the one Power 7
 * also runs on a shared database (`endedSignInKeys` in server-kit), so the two lists cannot differ.
 */
export function endedSignIns(db: PortalDb, seconds: number): Promise<string[]> {
  return endedSignInKeys(db, seconds);
}
