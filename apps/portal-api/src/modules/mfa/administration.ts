import { and, eq, inArray } from 'drizzle-orm';
import { invalidField } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { permissions } from '../../db/schema';
import { revokeAllSignIns } from '../accounts/sign-ins';
import { recordAudit, type AuditActor } from '../audit/record';
import { lockCompany } from '../roles/guards';
import { mustHaveSecondStep, policyOf, savePolicy, type MfaPolicy } from './policy';
import { removeSecondSteps } from './account-methods';

/**
 * An administrator's side of the second step (ADR 011): the company's policy and the reset of a
 * user's second step, each with its audit in the same transaction.
 */

/**
 * Saves the company's two-step policy and answers it as saved. A `permissions` policy must name
 * codes of the company (400 on `permissionCodes` otherwise, nothing saved).
 */
export async function changePolicy(
  db: PortalDb,
  companyId: string,
  policy: MfaPolicy,
  audit: AuditActor,
): Promise<MfaPolicy> {
  if (policy.requireFor === 'permissions') {
    const codes = [...new Set(policy.permissionCodes)];
    const known = await db
      .select({ code: permissions.code })
      .from(permissions)
      .where(and(eq(permissions.companyId, companyId), inArray(permissions.code, codes)));
    const unknown = codes.filter((code) => !known.some((row) => row.code === code));
    if (unknown.length > 0)
      throw invalidField('permissionCodes', `No such permission: ${unknown.join(', ')}.`);
  }
  return db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const before = await policyOf(tx, companyId);
    await savePolicy(tx, companyId, policy);
    const after = await policyOf(tx, companyId);
    await recordAudit(tx, {
      ...audit,
      action: 'company.mfa-policy-change',
      entityType: 'company',
      entityId: companyId,
      before: { ...before },
      after: { ...after },
    });
    return after;
  });
}

/**
 * Removes a user's authenticator app, recovery codes and passkeys and ends every sign-in of theirs;
 * answers what was removed and whether the policy has them enrol at their next sign-in.
 */
export function resetSecondStep(
  db: PortalDb,
  user: { id: string; companyId: string },
  audit: AuditActor,
) {
  return db.transaction(async (tx) => {
    const counts = await removeSecondSteps(tx, user.id);
    // The lost device may be in someone else's hands, still signed in: like a password reset,
    // the reset ends every sign-in of the user (issue #43), so only a new sign-in — with the
    // policy's enrolment when it applies — gets in again.
    const signInsEnded = await revokeAllSignIns(tx, user.id, 'second step reset');
    const enrolmentRequired = await mustHaveSecondStep(tx, user);
    await recordAudit(tx, {
      ...audit,
      action: 'user.second-step-reset',
      entityType: 'user',
      entityId: user.id,
      before: counts,
      after: { signInsEnded, enrolmentRequired },
    });
    return { ...counts, signInsEnded, enrolmentRequired };
  });
}
