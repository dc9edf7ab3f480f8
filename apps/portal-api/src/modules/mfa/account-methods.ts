/** Which second-step methods an account has set up (app, recovery codes, passkeys), and removing them all. */
import { count, eq } from 'drizzle-orm';
import type { SecondStepMethod } from '@pa/contracts/mfa';
import type { PortalDb, PortalTx } from '../../db/client';
import { passkeys, recoveryCodes, totpFactors } from '../../db/schema';
import type { SecretBox } from './secret-box';
import { passkeysOf } from './passkeys';
import { mustHaveSecondStep } from './policy';
import { recoveryCodesLeft } from './recovery-codes';
import { hasTotp } from './totp';

/** The second steps this account can use after its password (none = a password is enough). */
export async function secondStepMethods(
  db: PortalTx,
  box: SecretBox,
  userId: string,
): Promise<SecondStepMethod[]> {
  const [withTotp, [keys]] = await Promise.all([
    hasTotp(db, box, userId),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
  ]);
  const methods: SecondStepMethod[] = [];
  // Recovery codes come with the authenticator app and stand in for it.
  if (withTotp) methods.push('totp', 'recovery-code');
  if ((keys?.n ?? 0) > 0) methods.push('passkey');
  return methods;
}

/** Removes every second step of an account (an administrator's reset): app, recovery codes, passkeys. */
export async function removeSecondSteps(tx: PortalTx, userId: string) {
  const [app, codes, keys] = await Promise.all([
    tx
      .delete(totpFactors)
      .where(eq(totpFactors.userId, userId))
      .returning({ id: totpFactors.userId }),
    tx
      .delete(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId))
      .returning({ id: recoveryCodes.id }),
    tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id }),
  ]);
  return { totp: app.length > 0, recoveryCodes: codes.length, passkeys: keys.length };
}

/** What `GET /api/accounts/mfa` answers: the account's second steps and whether its company requires one. */
export async function secondStepStatus(
  db: PortalDb,
  box: SecretBox,
  user: { id: string; companyId: string },
) {
  const [totp, left, keys, required] = await Promise.all([
    hasTotp(db, box, user.id),
    recoveryCodesLeft(db, user.id),
    passkeysOf(db, user.id),
    mustHaveSecondStep(db, user),
  ]);
  return {
    totp,
    recoveryCodesLeft: totp ? left : 0,
    passkeys: keys.map((key) => ({
      _id: key.id,
      name: key.name,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    })),
    required,
  };
}
