import { and, eq, sql } from 'drizzle-orm';
import type { MFA_REQUIREMENTS, MfaCoverage } from '@pa/contracts/mfa';
import type { PortalTx } from '../../db/client';
import { mfaPolicies, passkeys, totpFactors, users } from '../../db/schema';
import { effectivePermissionCodes, effectivePermissionsSql } from '../auth/effective-permissions';

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

/** How many names each group of a coverage lists: enough to recognise, short enough to read. */
const COVERAGE_SAMPLE = 8;

/**
 * Who `policy` reaches among the company's active users (only they can sign in): who has a second
 * step already (a confirmed app or a passkey), how many the policy requires one of, and who of those
 * has none — they set one up at their next sign-in. One query over the company's users.
 */
export async function policyCoverage(
  db: PortalTx,
  companyId: string,
  policy: MfaPolicy,
): Promise<MfaCoverage> {
  const codes = [...new Set(policy.permissionCodes)];
  const covered =
    policy.requireFor === 'everyone'
      ? sql<boolean>`true`
      : policy.requireFor === 'nobody' || codes.length === 0
        ? sql<boolean>`false`
        : sql<boolean>`${effectivePermissionsSql(users.id, users.companyId)} && ${sql.param(codes)}::text[]`;
  const rows = await db
    .select({
      _id: users.id,
      userName: users.userName,
      first: users.userFirstName,
      last: users.userLastName,
      hasStep: sql<boolean>`(exists (select 1 from ${totpFactors} t where t.user_id = ${users.id} and t.confirmed_at is not null)
        or exists (select 1 from ${passkeys} k where k.user_id = ${users.id}))`,
      covered,
    })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.status, 'active')))
    .orderBy(users.userLastName, users.userFirstName, users.userName);
  const group = (list: typeof rows) => ({
    count: list.length,
    sample: list.slice(0, COVERAGE_SAMPLE).map((row) => ({
      _id: row._id,
      userName: row.userName,
      name: `${row.first} ${row.last}`.trim() || row.userName,
    })),
  });
  return {
    activeUsers: rows.length,
    withSecondStep: group(rows.filter((row) => row.hasStep)),
    required: rows.filter((row) => row.covered).length,
    toSetUp: group(rows.filter((row) => row.covered && !row.hasStep)),
  };
}
