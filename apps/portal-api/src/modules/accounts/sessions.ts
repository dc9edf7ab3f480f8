import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { PortalDb, PortalTx } from '../../db/client';
import { refreshTokens, signIns, users } from '../../db/schema';
import { signAccessToken } from '../auth/access-token';
import { effectivePermissionCodes } from '../auth/effective-permissions';
import type { SigningKeys } from '../auth/keys';

/** SHA-256 of an opaque token: what the database stores instead of the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new opaque random token (256 bits, base64url). */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

export interface TokenSettings {
  keys: SigningKeys;
  accessTtl: number;
  refreshTtl: number;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

interface SessionUser {
  id: string;
  companyId: string;
  userName: string;
}

async function accessTokenFor(
  db: PortalTx,
  settings: TokenSettings,
  user: SessionUser,
  sessionId: string,
) {
  const perms = await effectivePermissionCodes(db, user.id, user.companyId);
  return signAccessToken(
    settings.keys,
    { sub: user.id, cid: user.companyId, sid: sessionId, name: user.userName, perms },
    settings.accessTtl,
  );
}

/** Starts a sign-in (a refresh-token family) and issues its first token pair. */
export async function startSignIn(
  db: PortalDb,
  settings: TokenSettings,
  user: SessionUser,
  meta: { ip: string; userAgent: string },
): Promise<IssuedTokens> {
  const refreshToken = newOpaqueToken();
  const sessionId = await db.transaction(async (tx) => {
    const [signIn] = await tx
      .insert(signIns)
      .values({
        userId: user.id,
        companyId: user.companyId,
        ip: meta.ip,
        userAgent: meta.userAgent.slice(0, 512),
        expiresAt: new Date(Date.now() + settings.refreshTtl * 1000),
      })
      .returning({ id: signIns.id });
    if (!signIn) throw new Error('sign-in insert returned nothing');
    await tx
      .insert(refreshTokens)
      .values({ familyId: signIn.id, tokenHash: hashToken(refreshToken) });
    await tx.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
    return signIn.id;
  });
  return {
    accessToken: await accessTokenFor(db, settings, user, sessionId),
    refreshToken,
    sessionId,
  };
}

export type RotationResult =
  | { ok: true; tokens: IssuedTokens; userId: string; companyId: string }
  | {
      ok: false;
      reason: 'unknown' | 'reused' | 'ended';
      userId?: string;
      companyId?: string;
      sessionId?: string;
    };

/**
 * Exchanges a refresh token for a new pair. The token is consumed by ONE atomic
 * `UPDATE … WHERE used_at IS NULL RETURNING`, so of two concurrent rotations exactly one wins.
 * Presenting an already-used token (a replay, or the loser of a race) revokes the whole sign-in.
 */
export async function rotateRefreshToken(
  db: PortalDb,
  settings: TokenSettings,
  refreshToken: string,
): Promise<RotationResult> {
  const tokenHash = hashToken(refreshToken);
  // Consumption and the validity checks (sign-in live, user active) are ONE statement: the winner of
  // a race is decided by the row lock on the token, and a later revocation cannot undo its answer.
  const liveFamilies = db
    .select({ id: signIns.id })
    .from(signIns)
    .innerJoin(users, eq(users.id, signIns.userId))
    .where(
      and(isNull(signIns.revokedAt), gt(signIns.expiresAt, sql`now()`), eq(users.status, 'active')),
    );
  const [consumed] = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        inArray(refreshTokens.familyId, liveFamilies),
      ),
    )
    .returning({ familyId: refreshTokens.familyId });

  if (!consumed) {
    const [known] = await db
      .select({
        familyId: refreshTokens.familyId,
        usedAt: refreshTokens.usedAt,
        userId: signIns.userId,
        companyId: signIns.companyId,
      })
      .from(refreshTokens)
      .innerJoin(signIns, eq(signIns.id, refreshTokens.familyId))
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (!known) return { ok: false, reason: 'unknown' };
    if (!known.usedAt) return { ok: false, reason: 'ended', sessionId: known.familyId };
    // A used token presented again: a replay (or the loser of a race). End the whole sign-in.
    await revokeSignIn(db, known.familyId, 'refresh token reuse');
    return {
      ok: false,
      reason: 'reused',
      userId: known.userId,
      companyId: known.companyId,
      sessionId: known.familyId,
    };
  }

  const [row] = await db
    .select({ id: users.id, companyId: users.companyId, userName: users.userName })
    .from(signIns)
    .innerJoin(users, eq(users.id, signIns.userId))
    .where(eq(signIns.id, consumed.familyId));
  if (!row) return { ok: false, reason: 'ended', sessionId: consumed.familyId };
  const next = newOpaqueToken();
  await db.transaction(async (tx) => {
    await tx
      .insert(refreshTokens)
      .values({ familyId: consumed.familyId, tokenHash: hashToken(next) });
    await tx
      .update(signIns)
      .set({ lastUsedAt: new Date() })
      .where(eq(signIns.id, consumed.familyId));
  });
  return {
    ok: true,
    userId: row.id,
    companyId: row.companyId,
    tokens: {
      accessToken: await accessTokenFor(db, settings, row, consumed.familyId),
      refreshToken: next,
      sessionId: consumed.familyId,
    },
  };
}

/** Ends one sign-in (idempotent). Returns true when it was live. */
export async function revokeSignIn(db: PortalTx, sessionId: string, reason: string) {
  const rows = await db
    .update(signIns)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(signIns.id, sessionId), isNull(signIns.revokedAt)))
    .returning({ id: signIns.id });
  return rows.length > 0;
}

/**
 * Ends every sign-in of a user at once (status set to inactive/locked, deletion, password change or
 * reset, an administrator's request). `except` keeps one sign-in (the caller's own). Returns how many
 * were ended.
 */
export async function revokeAllSignIns(
  db: PortalTx,
  userId: string,
  reason = 'revoked',
  except?: string,
): Promise<number> {
  const rows = await db
    .update(signIns)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(signIns.userId, userId),
        isNull(signIns.revokedAt),
        except ? ne(signIns.id, except) : sql`true`,
      ),
    )
    .returning({ id: signIns.id });
  return rows.length;
}

/** Live sign-ins of a user, newest first. */
export async function listSignIns(db: PortalDb, userId: string) {
  return db
    .select({
      _id: signIns.id,
      createdAt: signIns.createdAt,
      lastUsedAt: signIns.lastUsedAt,
      expiresAt: signIns.expiresAt,
      userAgent: signIns.userAgent,
      ip: signIns.ip,
    })
    .from(signIns)
    .where(
      and(eq(signIns.userId, userId), isNull(signIns.revokedAt), sql`${signIns.expiresAt} > now()`),
    )
    .orderBy(sql`${signIns.id} desc`);
}
