import { and, eq, gt, inArray, isNull, lt, or, isNotNull } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import { signInChallenges, type ChallengePurpose } from '../../db/schema';
import { hashToken, newOpaqueToken } from '../accounts/sign-ins';

export interface Challenge {
  id: string;
  userId: string | null;
  purpose: ChallengePurpose;
  webauthnChallenge: string | null;
  deviceId: string | null;
}

const columns = {
  id: signInChallenges.id,
  userId: signInChallenges.userId,
  purpose: signInChallenges.purpose,
  webauthnChallenge: signInChallenges.webauthnChallenge,
  deviceId: signInChallenges.deviceId,
};

/**
 * Opens a challenge and answers its token: a new opaque token (the `mfaToken`), or for a passkey
 * ceremony the WebAuthn challenge itself, which the signed answer carries back. Only its hash is kept.
 */
export async function openChallenge(
  db: PortalTx,
  options: {
    purpose: ChallengePurpose;
    userId: string | null;
    ttlSeconds: number;
    deviceId?: string | null;
    webauthnChallenge?: string;
  },
): Promise<string> {
  const token = options.webauthnChallenge ?? newOpaqueToken();
  // Expired and used challenges go as new ones come: the table holds only live ones and a few more.
  await db
    .delete(signInChallenges)
    .where(or(lt(signInChallenges.expiresAt, new Date()), isNotNull(signInChallenges.usedAt)));
  await db.insert(signInChallenges).values({
    purpose: options.purpose,
    userId: options.userId,
    tokenHash: hashToken(token),
    webauthnChallenge: options.webauthnChallenge ?? null,
    deviceId: options.deviceId ?? null,
    expiresAt: new Date(Date.now() + options.ttlSeconds * 1000),
  });
  return token;
}

/** The live (unused, unexpired) challenge of a token, of one of these purposes, or null. */
export async function liveChallenge(
  db: PortalTx,
  token: string,
  purposes: ChallengePurpose[],
): Promise<Challenge | null> {
  if (token.length > 512) return null;
  const [row] = await db
    .select(columns)
    .from(signInChallenges)
    .where(
      and(
        eq(signInChallenges.tokenHash, hashToken(token)),
        inArray(signInChallenges.purpose, purposes),
        isNull(signInChallenges.usedAt),
        gt(signInChallenges.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Uses a challenge up: true for exactly one caller. */
export async function consumeChallenge(db: PortalTx, id: string): Promise<boolean> {
  const used = await db
    .update(signInChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(signInChallenges.id, id), isNull(signInChallenges.usedAt)))
    .returning({ id: signInChallenges.id });
  return used.length === 1;
}

/** Keeps the WebAuthn challenge a passkey must sign for this (second-step) challenge. */
export async function setWebauthnChallenge(db: PortalTx, id: string, challenge: string) {
  await db
    .update(signInChallenges)
    .set({ webauthnChallenge: challenge })
    .where(eq(signInChallenges.id, id));
}
