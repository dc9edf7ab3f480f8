import { gt } from 'drizzle-orm';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';
import type { PortalDb } from '../../db/client';
import { signIns } from '../../db/schema';

/**
 * Keys (`endedSignInKey`: a hash of the id, which hides its sign-in time) of the sign-ins that ended (sign-out, password change or reset, user set inactive or deleted
 * first, refresh-token reuse, revocation) within the last `seconds`: their access tokens may still be
 * unexpired, so a service verifying tokens locally (Power 7) refuses tokens whose `sid`'s key is listed.
 */
export async function endedSignIns(db: PortalDb, seconds: number): Promise<string[]> {
  const rows = await db
    .select({ id: signIns.id })
    .from(signIns)
    .where(gt(signIns.revokedAt, new Date(Date.now() - seconds * 1000)));
  return rows.map((row) => endedSignInKey(row.id));
}
