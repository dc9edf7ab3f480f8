import { and, count, eq, isNotNull, like, lt, not, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { PortalDb } from '../../db/client';
import { totpFactors } from '../../db/schema';
import { removeRecoveryCodes, replaceRecoveryCodes } from './recovery-codes';
import { SecretBox } from './secret-box';

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
const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The `otpauth://` URL an authenticator app reads from the QR code. */
export const otpauthUrl = (secret: string, account: string) => totpOf(secret, account).toString();

/** The 30-second step `code` is right for, within one step either side of `now`, or null. */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Starts setting up an authenticator app: a new secret, stored sealed (ADR 018) and not yet
 * confirmed (it replaces one being set up, or one that no longer opens). Returns the secret in the
 * clear, to be shown this once.
 */
export async function setUpTotp(
  db: PortalDb,
  box: SecretBox,
  user: { id: string; companyId: string },
): Promise<string> {
  const secret = newTotpSecret();
  const pending = { secret: box.seal(secret, user.id), confirmedAt: null, lastStep: 0 };
  await db
    .insert(totpFactors)
    .values({ userId: user.id, companyId: user.companyId, ...pending })
    .onConflictDoUpdate({ target: totpFactors.userId, set: pending });
  return secret;
}

/**
 * Checks a code against the account's secret and, when right, makes its step the last one used, in
 * one conditional update: a code (or an older one) is accepted once, even by two requests at once.
 * `confirmed` says which secret counts: the confirmed one, or the one being set up. A secret that
 * does not open with this key (a restore without `keys/`) accepts no code.
 */
export async function acceptTotpCode(
  db: PortalDb,
  box: SecretBox,
  userId: string,
  code: string,
  confirmed: boolean,
): Promise<boolean> {
  const [factor] = await db
    .select({ secret: totpFactors.secret, confirmedAt: totpFactors.confirmedAt })
    .from(totpFactors)
    .where(eq(totpFactors.userId, userId));
  if (!factor || Boolean(factor.confirmedAt) !== confirmed) return false;
  const secret = box.open(factor.secret, userId);
  if (secret === null) return false;
  const step = stepOfCode(secret, code.trim());
  if (step === null) return false;
  const used = await db
    .update(totpFactors)
    .set({ lastStep: step })
    .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastStep, step)))
    .returning({ userId: totpFactors.userId });
  return used.length === 1;
}

/** The stored secrets `box` can open: sealed under its key, or legacy plaintext (`v…` is neither). */
const readableBy = (box: SecretBox) =>
  sql`(${totpFactors.secret} like ${`${box.prefix}%`} or ${totpFactors.secret} not like 'v%')`;

/**
 * Confirms the app being set up (after a right code) and gives the account 10 new recovery codes, in
 * one transaction; answers the codes (the only time they exist in the clear).
 */
export function confirmTotp(db: PortalDb, userId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx
      .update(totpFactors)
      .set({ confirmedAt: new Date() })
      .where(eq(totpFactors.userId, userId));
    return replaceRecoveryCodes(tx, userId);
  });
}

/** Turns the account's authenticator app off, with its recovery codes, in one transaction. */
export async function removeTotp(db: PortalDb, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
    await removeRecoveryCodes(tx, userId);
  });
}

/**
 * Whether the account has a confirmed authenticator app whose secret this portal can read: one sealed
 * under another key counts as no app (the account sets one up again).
 */
export async function hasTotp(db: PortalDb, box: SecretBox, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(
      and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt), readableBy(box)),
    );
  return rows.length > 0;
}

/**
 * At start: seals every secret still stored in the clear (versions before ADR 018), each in a
 * conditional update (two processes starting at once seal it once), then rewrites the table so the
 * old plaintext rows leave its file. Counts the secrets sealed under another key, which no code
 * opens: those accounts are treated as having no app until they set one up again.
 */
export async function sealTotpSecrets(
  db: PortalDb,
  box: SecretBox,
): Promise<{ sealed: number; unreadable: number }> {
  const legacy = await db
    .select({ userId: totpFactors.userId, secret: totpFactors.secret })
    .from(totpFactors)
    .where(not(like(totpFactors.secret, 'v%')));
  let sealed = 0;
  for (const row of legacy) {
    if (!SecretBox.isLegacy(row.secret)) continue;
    const done = await db
      .update(totpFactors)
      .set({ secret: box.seal(row.secret, row.userId) })
      .where(and(eq(totpFactors.userId, row.userId), eq(totpFactors.secret, row.secret)))
      .returning({ userId: totpFactors.userId });
    sealed += done.length;
  }
  // The updates leave the plaintext in dead row versions until a vacuum; VACUUM FULL writes a new
  // file without them (a small table, once: only when something was sealed).
  if (sealed > 0) await db.execute(sql`vacuum full totp_factors`);
  const [other] = await db
    .select({ n: count() })
    .from(totpFactors)
    .where(not(readableBy(box)));
  return { sealed, unreadable: other?.n ?? 0 };
}
