import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { PortalDb } from '../../db/client';
import { totpFactors } from '../../db/schema';

/** RFC 6238 as authenticator apps expect it by default: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const ISSUER = 'Power Analyzer';

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });

/** A new random 160-bit secret, base32 (RFC 4226 recommends 160 bits for HMAC-SHA-1). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The `otpauth://` URL an authenticator app reads from the QR code. */
export const otpauthUrl = (secret: string, account: string) => totpOf(secret, account).toString();

/** The 30-second step `code` is right for, within one step either side of `now`, or null. */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Checks a code against the account's secret and, when right, makes its step the last one used, in
 * one conditional update: a code (or an older one) is accepted once, even by two requests at once.
 * `confirmed` says which secret counts: the confirmed one, or the one being set up.
 */
export async function acceptTotpCode(
  db: PortalDb,
  userId: string,
  code: string,
  confirmed: boolean,
): Promise<boolean> {
  const [factor] = await db
    .select({ secret: totpFactors.secret, confirmedAt: totpFactors.confirmedAt })
    .from(totpFactors)
    .where(eq(totpFactors.userId, userId));
  if (!factor || Boolean(factor.confirmedAt) !== confirmed) return false;
  const step = stepOfCode(factor.secret, code.trim());
  if (step === null) return false;
  const used = await db
    .update(totpFactors)
    .set({ lastStep: step })
    .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastStep, step)))
    .returning({ userId: totpFactors.userId });
  return used.length === 1;
}

/** Whether the account has a confirmed authenticator app. */
export async function hasTotp(db: PortalDb, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  return rows.length > 0;
}
