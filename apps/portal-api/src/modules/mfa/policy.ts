import { eq } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import type { MFA_REQUIREMENTS } from '@pa/contracts/mfa';
import { mfaPolicies } from '../../db/schema';
import { effectivePermissionCodes } from '../auth/effective-permissions';

export type MfaRequirement = (typeof MFA_REQUIREMENTS)[number];

export interface MfaPolicy {
  requireFor: MfaRequirement;
  permissionCodes: string[];
}

const NOBODY: MfaPolicy = { requireFor: 'nobody', permissionCodes: [] };

/** The company's policy; a company that never set one requires nobody. */
export async function policyOf(db: PortalTx, companyId: string): Promise<MfaPolicy> {
  const [row] = await db
    .select({ requireFor: mfaPolicies.requireFor, permissionCodes: mfaPolicies.permissionCodes })
    .from(mfaPolicies)
    .where(eq(mfaPolicies.companyId, companyId));
  return row ?? NOBODY;
}

export async function savePolicy(db: PortalTx, companyId: string, policy: MfaPolicy) {
  const values = {
    requireFor: policy.requireFor,
    // Only `permissions` uses the list; the others keep none, so a later switch starts clean.
    permissionCodes:
      policy.requireFor === 'permissions' ? [...new Set(policy.permissionCodes)] : [],
    updatedAt: new Date(),
  };
  await db
    .insert(mfaPolicies)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: mfaPolicies.companyId, set: values });
}

/** Whether the company's policy requires this user to have a second step. */
export async function mustHaveSecondStep(
  db: PortalTx,
  user: { id: string; companyId: string },
): Promise<boolean> {
  const policy = await policyOf(db, user.companyId);
  if (policy.requireFor === 'everyone') return true;
  if (policy.requireFor === 'nobody' || policy.permissionCodes.length === 0) return false;
  const held = await effectivePermissionCodes(db, user.id, user.companyId);
  return policy.permissionCodes.some((code) => held.includes(code));
}
