import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { PortalDb, PortalTx } from '../../db/client';
import { recordAudit } from '../audit/record';
import { trimUserAgent, type ClientInfo } from '../client-info';
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
  /** Seconds after its use in which a token whose child was never used may be presented again. */
  reuseGrace: number;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  signInId: string;
}

interface SignInUser {
  id: string;
  companyId: string;
  userName: string;
}

/** How a sign-in's user proved who they are (RFC 8176 names): kept on the sign-in for every token. */
export type AuthMethod = 'pwd' | 'otp' | 'hwk';

async function accessTokenFor(
  db: PortalTx,
  settings: TokenSettings,
  user: SignInUser,
  signInId: string,
  amr: string[],
) {
  const perms = await effectivePermissionCodes(db, user.id, user.companyId);
  return signAccessToken(
    settings.keys,
    { sub: user.id, cid: user.companyId, sid: signInId, name: user.userName, perms, amr },
    settings.accessTtl,
  );
}

/** Starts a sign-in (a refresh-token family) and issues its first token pair. */
export async function startSignIn(
  db: PortalDb,
  settings: TokenSettings,
  user: SignInUser,
  meta: { ip: string; userAgent: string },
  amr: AuthMethod[] = ['pwd'],
): Promise<IssuedTokens> {
  const refreshToken = newOpaqueToken();
  const signInId = await db.transaction(async (tx) => {
    const [signIn] = await tx
      .insert(signIns)
      .values({
        userId: user.id,
        companyId: user.companyId,
        ip: meta.ip,
        userAgent: trimUserAgent(meta.userAgent),
        expiresAt: new Date(Date.now() + settings.refreshTtl * 1000),
        amr,
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
    accessToken: await accessTokenFor(db, settings, user, signInId, amr),
    refreshToken,
    signInId,
  };
}

export type RotationResult =
  | {
      ok: true;
      tokens: IssuedTokens;
      userId: string;
      companyId: string;
      /** A used token was honoured within the reuse grace (a retry after a lost answer). */
      retried: boolean;
    }
  | {
      ok: false;
      reason: 'unknown' | 'reused' | 'ended';
      userId?: string;
      companyId?: string;
      signInId?: string;
    };

/**
 * Exchanges a refresh token for a new pair (ADR 002, amended by ADR 006). Rotations of one sign-in are
 * serialised by a row lock on the sign-in, so each sees the last one's outcome:
 * - an unused token is consumed and replaced by a child;
 * - a used token presented again within `reuseGrace` seconds of its use, whose child was never used,
 *   is a client retrying a rotation whose answer it lost (a reload cut the request off after the
 *   server had answered): the unused child is withdrawn and a new one issued, so the family still has
 *   exactly one live token;
 * - any other use of a used token is a replay: the whole sign-in ends (reuse detection).
 */
export async function rotateRefreshToken(
  db: PortalDb,
  settings: TokenSettings,
  refreshToken: string,
): Promise<RotationResult> {
  const tokenHash = hashToken(refreshToken);
  const [presented] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!presented) return { ok: false, reason: 'unknown' };
  const { familyId } = presented;

  const outcome = await db.transaction(async (tx) => {
    // The lock orders concurrent rotations of this sign-in; everything below reads after it.
    const [family] = await tx
      .select({
        revokedAt: signIns.revokedAt,
        expiresAt: signIns.expiresAt,
        userId: users.id,
        companyId: users.companyId,
        userName: users.userName,
        status: users.status,
        amr: signIns.amr,
      })
      .from(signIns)
      .innerJoin(users, eq(users.id, signIns.userId))
      .where(eq(signIns.id, familyId))
      .for('update', { of: signIns });
    if (!family || family.revokedAt || family.expiresAt <= new Date() || family.status !== 'active')
      return { ok: false as const, reason: 'ended' as const };
    const [token] = await tx
      .select({ id: refreshTokens.id, usedAt: refreshTokens.usedAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (!token) return { ok: false as const, reason: 'unknown' as const };

    const now = new Date();
    if (token.usedAt) {
      const withinGrace = now.getTime() - token.usedAt.getTime() <= settings.reuseGrace * 1000;
      const withdrawn = withinGrace
        ? await tx
            .update(refreshTokens)
            .set({ usedAt: now })
            .where(and(eq(refreshTokens.parentId, token.id), isNull(refreshTokens.usedAt)))
            .returning({ id: refreshTokens.id })
        : [];
      if (withdrawn.length === 0) {
        // A used token presented again: a replay (or a retry after its child was used). End the sign-in.
        await revokeSignIn(tx, familyId, 'refresh token reuse');
        return { ok: false as const, reason: 'reused' as const, family };
      }
    } else {
      await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, token.id));
    }
    const next = newOpaqueToken();
    await tx
      .insert(refreshTokens)
      .values({ familyId, parentId: token.id, tokenHash: hashToken(next) });
    await tx.update(signIns).set({ lastUsedAt: now }).where(eq(signIns.id, familyId));
    return { ok: true as const, next, family, retried: Boolean(token.usedAt) };
  });

  if (!outcome.ok) {
    if (outcome.reason !== 'reused')
      return { ok: false, reason: outcome.reason, signInId: familyId };
    return {
      ok: false,
      reason: 'reused',
      userId: outcome.family.userId,
      companyId: outcome.family.companyId,
      signInId: familyId,
    };
  }
  const user = {
    id: outcome.family.userId,
    companyId: outcome.family.companyId,
    userName: outcome.family.userName,
  };
  return {
    ok: true,
    userId: user.id,
    companyId: user.companyId,
    retried: outcome.retried,
    tokens: {
      accessToken: await accessTokenFor(db, settings, user, familyId, outcome.family.amr),
      refreshToken: outcome.next,
      signInId: familyId,
    },
  };
}

/** Ends one sign-in (idempotent). Returns true when it was live. */
export async function revokeSignIn(db: PortalTx, signInId: string, reason: string) {
  const rows = await db
    .update(signIns)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(signIns.id, signInId), isNull(signIns.revokedAt)))
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

/** The account a sign-in names, by user name or email (case-insensitive); null when none. */
export async function findAccount(db: PortalDb, by: 'userName' | 'email', login: string) {
  const column = by === 'userName' ? users.userName : users.email;
  const [user] = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      userName: users.userName,
      status: users.status,
      passwordHash: users.passwordHash,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .where(eq(sql`lower(${column})`, login.toLowerCase()))
    .limit(1);
  return user ?? null;
}

/** The sign-in a refresh token belongs to (used or not); null for an unknown token. */
export async function signInOfRefreshToken(db: PortalDb, refreshToken: string) {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  return row?.familyId ?? null;
}

/** Ends one sign-in at its user's request; the audit event only when it was still live. */
export async function signOut(db: PortalDb, signInId: string, client: ClientInfo) {
  const [signIn] = await db
    .select({ userId: signIns.userId, companyId: signIns.companyId, userName: users.userName })
    .from(signIns)
    .innerJoin(users, eq(users.id, signIns.userId))
    .where(eq(signIns.id, signInId));
  if (!signIn || !(await revokeSignIn(db, signInId, 'signed out'))) return;
  await recordAudit(db, {
    companyId: signIn.companyId,
    actorId: signIn.userId,
    actorName: signIn.userName,
    action: 'account.sign-out',
    entityType: 'session', // a sign-in: stored audit events keep the old word
    entityId: signInId,
    ...client,
  });
}

/** Whether `signInId` is one of the user's sign-ins. */
export async function isSignInOf(db: PortalDb, signInId: string, userId: string) {
  const rows = await db
    .select({ id: signIns.id })
    .from(signIns)
    .where(and(eq(signIns.id, signInId), eq(signIns.userId, userId)));
  return rows.length > 0;
}
