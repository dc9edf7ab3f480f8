import { randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { PortalDb, PortalTx } from '../../db/client';
import { recoveryCodes } from '../../db/schema';
import { hashToken } from '../accounts/sign-ins';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: read off paper without doubt. 31 symbols, 10 of them: 49 random bits a code. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx`, lower case. */
function newCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is hashed: lower case without spaces or dashes, so `ABCDE FGHJK` matches `abcde-fghjk`. */
const normalised = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Replaces the account's recovery codes with 10 new ones; answers them (the only time they exist). */
export async function replaceRecoveryCodes(db: PortalTx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashToken(normalised(code)) })));
  return codes;
}

/** Replaces the account's recovery codes in one transaction (the old ones stop working). */
export function renewRecoveryCodes(db: PortalDb, userId: string): Promise<string[]> {
  return db.transaction((tx) => replaceRecoveryCodes(tx, userId));
}

/** Removes every recovery code of the account (they go with its authenticator app). */
export async function removeRecoveryCodes(db: PortalTx, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Uses up one recovery code: true once per code, in one conditional update. */
export async function useRecoveryCode(
  db: PortalTx,
  userId: string,
  code: string,
): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashToken(normalised(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

/** Recovery codes not used yet. */
export async function recoveryCodesLeft(db: PortalTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
