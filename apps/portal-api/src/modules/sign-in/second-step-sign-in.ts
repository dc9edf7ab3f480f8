import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { z } from 'zod';
import type { secondStepSchema } from '@pa/contracts/mfa';
import { AppError, unauthorized } from '@pa/server-kit/errors';
import type { AuthMethod } from '../accounts/sign-ins';
import { recordAudit } from '../audit/record';
import { clientInfo } from '../client-info';
import {
  consumeChallenge,
  liveChallenge,
  openChallenge,
  setWebauthnChallenge,
} from '../mfa/challenges';
import { SecondStepLimits } from '../mfa/limits';
import { authenticationOptions, challengeOfAnswer, verifyPasskey } from '../mfa/passkeys';
import { recoveryCodesLeft, useRecoveryCode } from '../mfa/recovery-codes';
import { relyingPartyOf } from '../mfa/relying-party';
import { acceptTotpCode } from '../mfa/totp';
import type { SignInGuard } from './guard';
import { activeAccount, finishSignIn, type SignInAccount } from './steps';

const STEP_EXPIRED = 'This sign-in has expired. Please sign in again.';
const WRONG_STEP = 'That code is not right.';
const PASSKEY_FAILED = 'This passkey could not be verified.';

type PasskeyOptions = Record<string, unknown>;
type SecondStep = z.infer<typeof secondStepSchema>;

/**
 * The second step of a sign-in (an app code, a recovery code or a passkey) and signing in with a
 * passkey alone: what the routes in `routes/api/accounts/sign-in-mfa.ts` answer.
 */
export class SecondStepSignIn {
  private readonly rp: ReturnType<typeof relyingPartyOf>;
  private readonly limits: SecondStepLimits;

  constructor(
    private readonly app: FastifyInstance,
    private readonly guard: SignInGuard,
  ) {
    this.rp = relyingPartyOf(app.config.PUBLIC_URL);
    this.limits = new SecondStepLimits(
      { perWindow: app.config.MFA_RATE_LIMIT, windowSeconds: app.config.SIGNIN_RATE_LIMIT_WINDOW },
      app.limiterStore,
    );
  }

  /**
   * Checks the answer to the second step of `mfaToken`. A wrong one counts against the limits and is
   * audited (401); past the limit, 429 with Retry-After. A right one uses the token up and signs in.
   */
  async answer(request: FastifyRequest, reply: FastifyReply, body: SecondStep) {
    const { app, limits } = this;
    const challenge = await liveChallenge(app.db, body.mfaToken, ['second-step']);
    if (!challenge?.userId) throw unauthorized(STEP_EXPIRED);
    const user = await activeAccount(app, challenge.userId);
    const attempt = { userId: user.id, challengeId: challenge.id, deviceId: challenge.deviceId };
    const wait = await limits.retryAfter(attempt);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        `Too many wrong codes. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
      );
    }
    const { method, passed } = await this.check(user, body, challenge.webauthnChallenge);
    const audit = { ...this.auditOf(request, user), after: { method: kindOf(body) } };
    if (!passed) {
      await limits.failed(attempt);
      await recordAudit(app.db, { ...audit, action: 'account.second-step-failed' });
      throw unauthorized(method === 'hwk' ? PASSKEY_FAILED : WRONG_STEP);
    }
    if (!(await consumeChallenge(app.db, challenge.id))) throw unauthorized(STEP_EXPIRED);
    await limits.succeeded(attempt);
    if (body.recoveryCode !== undefined) {
      const left = await recoveryCodesLeft(app.db, user.id);
      await recordAudit(app.db, {
        ...audit,
        action: 'account.recovery-code-used',
        after: { left },
      });
    }
    return finishSignIn(app, this.guard, request, reply, user, challenge.deviceId, ['pwd', method]);
  }

  /** Options for the browser to sign with one of the account's passkeys, as its second step. */
  async stepPasskeyOptions(mfaToken: string): Promise<PasskeyOptions> {
    const challenge = await liveChallenge(this.app.db, mfaToken, ['second-step']);
    if (!challenge?.userId) throw unauthorized(STEP_EXPIRED);
    const webauthn = await authenticationOptions(this.app.db, this.rp, challenge.userId);
    await setWebauthnChallenge(this.app.db, challenge.id, webauthn.challenge);
    return webauthn as unknown as PasskeyOptions;
  }

  /** Options for "Sign in with a passkey": any discoverable passkey of this site. */
  async passkeyOptions(): Promise<PasskeyOptions> {
    const webauthn = await authenticationOptions(this.app.db, this.rp, null);
    await openChallenge(this.app.db, {
      purpose: 'passkey-sign-in',
      userId: null,
      webauthnChallenge: webauthn.challenge,
      ttlSeconds: this.app.config.MFA_TOKEN_TTL,
    });
    return webauthn as unknown as PasskeyOptions;
  }

  /** Signs in with a passkey alone: it verified its user, so it stands for both steps (`amr` hwk). */
  async withPasskey(request: FastifyRequest, reply: FastifyReply, response: PasskeyOptions) {
    const { app } = this;
    const answer = response as unknown as AuthenticationResponseJSON;
    const challenge = challengeOfAnswer(answer);
    const live = challenge && (await liveChallenge(app.db, challenge, ['passkey-sign-in']));
    if (!challenge || !live || !(await consumeChallenge(app.db, live.id)))
      throw unauthorized(PASSKEY_FAILED);
    const verified = await verifyPasskey(app.db, this.rp, challenge, answer, null);
    if (!verified) throw unauthorized(PASSKEY_FAILED);
    const user = await activeAccount(app, verified.userId);
    const deviceId = await this.guard.deviceFor(request, user);
    return finishSignIn(app, this.guard, request, reply, user, deviceId, ['hwk']);
  }

  /** Whether the answer is right, and how it proved the user (`otp` for both kinds of code). */
  private async check(
    user: SignInAccount,
    { code, recoveryCode, passkey }: SecondStep,
    webauthnChallenge: string | null,
  ): Promise<{ method: AuthMethod; passed: boolean }> {
    const db = this.app.db;
    if (code !== undefined)
      return {
        method: 'otp',
        passed: await acceptTotpCode(db, this.app.secretBox, user.id, code, true),
      };
    if (recoveryCode !== undefined)
      return { method: 'otp', passed: await useRecoveryCode(db, user.id, recoveryCode) };
    if (passkey && webauthnChallenge) {
      const answer = passkey as unknown as AuthenticationResponseJSON;
      const verified = await verifyPasskey(db, this.rp, webauthnChallenge, answer, user.id);
      return { method: 'hwk', passed: Boolean(verified) };
    }
    return { method: 'otp', passed: false };
  }

  private auditOf(request: FastifyRequest, user: SignInAccount) {
    return {
      companyId: user.companyId,
      actorId: user.id,
      actorName: user.userName,
      entityType: 'user' as const,
      entityId: user.id,
      ...clientInfo(request),
    };
  }
}

const kindOf = ({ code, recoveryCode }: SecondStep) =>
  code ? 'totp' : recoveryCode ? 'recovery-code' : 'passkey';
