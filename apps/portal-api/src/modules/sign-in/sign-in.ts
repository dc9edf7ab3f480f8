import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { unauthorized } from '@pa/server-kit/errors';
import { verifyAccessToken } from '../auth/access-token';
import { recordAudit } from '../audit/record';
import { clientInfo } from '../client-info';
import { verifyPassword } from '../accounts/passwords';
import {
  findAccount,
  rotateRefreshToken,
  signInOfRefreshToken,
  signOut,
  type IssuedTokens,
} from '../accounts/sign-ins';
import type { SignInGuard } from './guard';
import { finishSignIn, INVALID_CREDENTIALS, nextStepAfterPassword, tokenSettingsOf } from './steps';

/** A sign-in's login and password, as the route parsed them (exactly one of userName or email). */
export interface PasswordCredentials {
  userName?: string | undefined;
  email?: string | undefined;
  password: string;
}

/** What a right password leads to: the second step still to take, or the finished sign-in. */
export type PasswordSignInOutcome =
  | { next: MfaChallenge }
  | { signedIn: Awaited<ReturnType<typeof finishSignIn>> };

/**
 * Signs in with a login and password (docs/product/services.md §4): the sign-in limits first (429),
 * one password check that costs the same for unknown accounts, then the second step the account or
 * its company requires, or the finished sign-in with its cookies set on `reply`. Every refusal is
 * `INVALID_CREDENTIALS`, counted against the limits; a known account's refusal is audited.
 */
export async function signInWithPassword(
  app: FastifyInstance,
  guard: SignInGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  credentials: PasswordCredentials,
): Promise<PasswordSignInOutcome> {
  const kind = credentials.userName ? 'userName' : 'email';
  const login = (credentials.userName ?? credentials.email ?? '').toLowerCase();
  const user = await findAccount(app.db, kind, login);
  // Counted by the login as typed, known or not: a delayed user name then says nothing about
  // which email shares its account. A device cookie of this account keeps the owner's allowance.
  const attempt = {
    login: `${kind}:${login}`,
    address: request.ip,
    device: await guard.deviceFor(request, user),
  };
  await guard.assertMayTry(reply, attempt);
  // Always one argon2 verification, against a dummy hash for unknown accounts: same time, same answer.
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, credentials.password);
  if (!user || !passwordOk || user.status !== 'active') {
    await guard.limits.failed(attempt);
    if (user) {
      // Written after the answer: a write only known accounts make would time them apart.
      app.runInBackground(
        recordAudit(app.db, {
          companyId: user.companyId,
          actorId: user.id,
          actorName: user.userName,
          action: 'account.sign-in-failed',
          entityType: 'user',
          entityId: user.id,
          after: { reason: passwordOk ? `account ${user.status}` : 'wrong password' },
          ...clientInfo(request),
        }),
        'sign-in failure audit',
      );
    }
    request.log.info({ login: user ? user.id : 'unknown account' }, 'sign-in failed');
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await guard.limits.succeeded(attempt);
  // A second step (or the enrolment the company requires) comes before any token.
  const next = await nextStepAfterPassword(app, user, attempt.device);
  if (next) return { next };
  return {
    signedIn: await finishSignIn(app, guard, request, reply, user, attempt.device, ['pwd']),
  };
}

/**
 * Exchanges a refresh token for a new pair (ADR 002, ADR 006); null when refused. A reused token has
 * ended its whole sign-in: that is logged and audited here.
 */
export async function rotateSignInToken(
  app: FastifyInstance,
  request: FastifyRequest,
  presented: string,
): Promise<IssuedTokens | null> {
  const result = await rotateRefreshToken(app.db, tokenSettingsOf(app), presented);
  if (!result.ok) {
    if (result.reason === 'reused' && result.companyId) {
      request.log.warn({ signInId: result.signInId }, 'refresh token reuse: sign-in revoked');
      await recordAudit(app.db, {
        companyId: result.companyId,
        actorId: result.userId ?? null,
        action: 'session.revoke',
        entityType: 'session', // a sign-in: stored audit events keep the old word
        entityId: result.signInId ?? null,
        after: { reason: 'refresh token reuse' },
        ...clientInfo(request),
      });
    }
    return null;
  }
  if (result.retried)
    request.log.info(
      { signInId: result.tokens.signInId },
      'refresh token presented again within the reuse grace: answered again',
    );
  return result.tokens;
}

/**
 * Ends the sign-ins a sign-out names: the bearer access token's and/or the refresh token's
 * (idempotent; an unknown or expired token names none).
 */
export async function signOutOf(
  app: FastifyInstance,
  request: FastifyRequest,
  presentedRefreshToken: string | null,
): Promise<void> {
  const ended = new Set<string>();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const claims = bearer ? await verifyAccessToken(app.signingKeys, bearer) : null;
  if (claims) ended.add(claims.sid);
  if (presentedRefreshToken) {
    const familyId = await signInOfRefreshToken(app.db, presentedRefreshToken);
    if (familyId) ended.add(familyId);
  }
  for (const signInId of ended) await signOut(app.db, signInId, clientInfo(request));
}
