import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError, invalidField, unauthorized } from '@pa/server-kit/errors';
import { recordAudit } from '../audit/record';
import { clientInfo } from '../client-info';
import { newDeviceId, signDeviceToken, verifyDeviceToken } from '../accounts/device-token';
import { SignInLimits, type SignInAttempt } from '../accounts/limits';
import { passwordStateOf } from '../accounts/password-change';
import { verifyPassword } from '../accounts/passwords';

/** The sign-in device cookie (ADR 007): HttpOnly, sent to the accounts calls only. */
export const DEVICE_COOKIE = 'signInDevice';
const DEVICE_COOKIE_PATH = '/api/accounts';

/** An account as the device check sees it. */
export interface DeviceAccount {
  id: string;
  passwordChangedAt: Date;
}

/** The login key of a signed-in user's own password checks: their user name, as sign-in counts it. */
const userNameLogin = (userName: string) => `userName:${userName.toLowerCase()}`;

/**
 * Everything that stands between a guessed password and its check, shared by sign-in and the calls
 * that ask a signed-in user for their current password (email change, password change): the sign-in
 * limits (docs/reference/portal-api.md "Sign-in limits") and the device cookie that keeps an owner's own allowance.
 */
export class SignInGuard {
  readonly limits: SignInLimits;
  private readonly secureCookie: boolean;

  constructor(private readonly app: FastifyInstance) {
    const { config } = app;
    this.limits = new SignInLimits(
      {
        windowSeconds: config.SIGNIN_RATE_LIMIT_WINDOW,
        perLoginAndAddress: config.SIGNIN_RATE_LIMIT_ACCOUNT,
        perAddress: config.SIGNIN_RATE_LIMIT_IP,
        delayAfter: config.SIGNIN_ACCOUNT_DELAY_AFTER,
        loginCeiling: config.SIGNIN_ACCOUNT_CEILING,
        perDevice: config.SIGNIN_RATE_LIMIT_ACCOUNT,
      },
      app.limiterStore,
    );
    this.secureCookie = new URL(config.PUBLIC_URL).protocol === 'https:';
  }

  /**
   * The device id the request's cookie gives for this account, or null: no cookie, a forged or
   * expired one, another account's, or one issued before the account's password was last set. The
   * cookie is verified whether or not an account was found, so its cost says nothing about that.
   */
  async deviceFor(request: FastifyRequest, account: DeviceAccount | null): Promise<string | null> {
    const cookie = request.cookies[DEVICE_COOKIE];
    if (!cookie || cookie.length > 2048) return null;
    const claims = await verifyDeviceToken(this.app.signingKeys, cookie);
    if (!claims || !account || claims.userId !== account.id) return null;
    return claims.passwordEpoch === account.passwordChangedAt.getTime() ? claims.deviceId : null;
  }

  /** Sets (or renews) the device cookie after a proven password: the same device id when it had one. */
  async rememberDevice(reply: FastifyReply, account: DeviceAccount, deviceId: string | null) {
    const ttl = this.app.config.SIGNIN_DEVICE_TTL;
    const token = await signDeviceToken(
      this.app.signingKeys,
      {
        userId: account.id,
        deviceId: deviceId ?? newDeviceId(),
        passwordEpoch: account.passwordChangedAt.getTime(),
      },
      ttl,
    );
    void reply.setCookie(DEVICE_COOKIE, token, {
      path: DEVICE_COOKIE_PATH,
      httpOnly: true,
      secure: this.secureCookie,
      sameSite: 'strict',
      maxAge: ttl,
    });
  }

  /** 429 `RATE_LIMITED` with Retry-After while this attempt must wait. */
  async assertMayTry(reply: FastifyReply, attempt: SignInAttempt): Promise<void> {
    const seconds = await this.limits.retryAfter(attempt);
    if (seconds <= 0) return;
    void reply.header('retry-after', String(seconds));
    throw new AppError(
      ErrorCode.RATE_LIMITED,
      `Too many sign-in attempts. Try again in ${waitInWords(seconds)}.`,
    );
  }

  /**
   * A signed-in user proves their current password before a change that could take the account
   * (email) or lock its owner out (password). Limited and counted like a sign-in under their user
   * name; a wrong one is audited and answers 400 naming `currentPassword`.
   */
  async proveCurrentPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    password: string,
    doing: 'email change' | 'password change' | 'second step change',
  ): Promise<DeviceAccount & { deviceId: string | null }> {
    const account = await passwordStateOf(this.app.db, userId);
    if (!account) throw unauthorized();
    const deviceId = await this.deviceFor(request, account);
    const attempt = {
      login: userNameLogin(account.userName),
      address: request.ip,
      device: deviceId,
    };
    await this.assertMayTry(reply, attempt);
    if (!(await verifyPassword(account.passwordHash, password))) {
      await this.limits.failed(attempt);
      await recordAudit(this.app.db, {
        companyId: account.companyId,
        actorId: account.id,
        actorName: account.userName,
        action: 'account.password-check-failed',
        entityType: 'user',
        entityId: account.id,
        after: { for: doing },
        ...clientInfo(request),
      });
      throw invalidField('currentPassword', 'The current password is not correct.');
    }
    await this.limits.succeeded(attempt);
    return { ...account, deviceId };
  }
}

/** "45 seconds", "15 minutes", "2 hours": a wait as people say it (rounded up). */
export function waitInWords(seconds: number): string {
  const say = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return say(seconds, 'second');
  if (seconds < 3600) return say(Math.ceil(seconds / 60), 'minute');
  return say(Math.ceil(seconds / 3600), 'hour');
}
