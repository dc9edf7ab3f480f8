import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { MfaChallenge } from '@pa/contracts/mfa';
import { unauthorized } from '@pa/server-kit/errors';
import { users } from '../../db/schema';
import { recordAudit } from '../audit/record';
import { clientInfo } from '../client-info';
import { startSignIn, type AuthMethod, type TokenSettings } from '../accounts/sign-ins';
import { loadUserDetails } from '../accounts/user-details';
import { openChallenge } from '../mfa/challenges';
import { mustHaveSecondStep } from '../mfa/policy';
import { secondStepMethods } from '../mfa/account-methods';
import { setRefreshCookie } from './refresh-cookie';
import type { SignInGuard } from './guard';

export const INVALID_CREDENTIALS = 'Invalid credentials.';

/** An account as a sign-in step needs it. */
export interface SignInAccount {
  id: string;
  companyId: string;
  userName: string;
  passwordChangedAt: Date;
}

export const tokenSettingsOf = (app: FastifyInstance): TokenSettings => ({
  keys: app.signingKeys,
  accessTtl: app.config.ACCESS_TOKEN_TTL,
  refreshTtl: app.config.REFRESH_TOKEN_TTL,
  reuseGrace: app.config.REFRESH_REUSE_GRACE,
});

/** An active account by id (a later step of a sign-in re-reads it: it may have been locked since). */
export async function activeAccount(app: FastifyInstance, id: string): Promise<SignInAccount> {
  const [user] = await app.db
    .select({
      id: users.id,
      companyId: users.companyId,
      userName: users.userName,
      passwordChangedAt: users.passwordChangedAt,
      status: users.status,
    })
    .from(users)
    .where(eq(users.id, id));
  if (!user || user.status !== 'active') throw unauthorized(INVALID_CREDENTIALS);
  return user;
}

/**
 * After a right password: the second step the account must take (`mfaToken` and its methods), the
 * enrolment its company requires first, or null when the password is enough. Tokens and the device
 * cookie come only once every step is done.
 */
export async function nextStepAfterPassword(
  app: FastifyInstance,
  user: SignInAccount,
  deviceId: string | null,
): Promise<MfaChallenge | null> {
  const ttlSeconds = app.config.MFA_TOKEN_TTL;
  const methods = await secondStepMethods(app.db, app.secretBox, user.id);
  if (methods.length > 0) {
    const mfaToken = await openChallenge(app.db, {
      purpose: 'second-step',
      userId: user.id,
      deviceId,
      ttlSeconds,
    });
    return { mfaRequired: true, enrolmentRequired: false, mfaToken, methods };
  }
  if (!(await mustHaveSecondStep(app.db, user))) return null;
  const mfaToken = await openChallenge(app.db, {
    purpose: 'enrol',
    userId: user.id,
    deviceId,
    ttlSeconds,
  });
  return { mfaRequired: true, enrolmentRequired: true, mfaToken, methods: [] };
}

/**
 * Every step done: starts the sign-in with how it was proven (`amr`), audits it, sets the refresh
 * and device cookies and answers what a sign-in answers.
 */
export async function finishSignIn(
  app: FastifyInstance,
  guard: SignInGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  user: SignInAccount,
  deviceId: string | null,
  amr: AuthMethod[],
) {
  const meta = clientInfo(request);
  const tokens = await startSignIn(app.db, tokenSettingsOf(app), user, meta, amr);
  await recordAudit(app.db, {
    companyId: user.companyId,
    actorId: user.id,
    actorName: user.userName,
    action: 'account.sign-in',
    entityType: 'session', // a sign-in: stored audit events keep the old word
    entityId: tokens.signInId,
    after: { amr },
    ...meta,
  });
  const details = await loadUserDetails(app.db, user.id);
  if (!details) throw unauthorized(INVALID_CREDENTIALS);
  setRefreshCookie(reply, tokens.refreshToken, app.config.REFRESH_TOKEN_TTL);
  await guard.rememberDevice(reply, user, deviceId);
  return { ...details, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}
