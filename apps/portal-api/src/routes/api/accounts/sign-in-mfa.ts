import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { ErrorCode } from '@pa/contracts/error-codes';
import { ok as envelope } from '@pa/contracts/envelope';
import { secondStepSchema } from '@pa/contracts/mfa';
import { AppError, unauthorized } from '@pa/server-kit/errors';
import type { AuthMethod } from '../../../modules/accounts/sign-ins';
import { recordAudit } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import {
  consumeChallenge,
  liveChallenge,
  openChallenge,
  setWebauthnChallenge,
} from '../../../modules/mfa/challenges';
import { SecondStepLimits } from '../../../modules/mfa/limits';
import {
  authenticationOptions,
  challengeOfAnswer,
  verifyPasskey,
} from '../../../modules/mfa/passkeys';
import { recoveryCodesLeft, useRecoveryCode } from '../../../modules/mfa/recovery-codes';
import { relyingPartyOf } from '../../../modules/mfa/relying-party';
import { acceptTotpCode } from '../../../modules/mfa/totp';
import { errors, ok, signedInSchema } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';
import { activeAccount, finishSignIn } from '../../../modules/sign-in/steps';

const STEP_EXPIRED = 'This sign-in has expired. Please sign in again.';
const WRONG_STEP = 'That code is not right.';
const PASSKEY_FAILED = 'This passkey could not be verified.';
const options = z.record(z.string(), z.unknown());

/** The second step of a sign-in, and signing in with a passkey on its own. */
export async function registerSecondStepRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const rp = relyingPartyOf(app.config.PUBLIC_URL);
  const ttlSeconds = app.config.MFA_TOKEN_TTL;
  const limits = new SecondStepLimits(
    { perWindow: app.config.MFA_RATE_LIMIT, windowSeconds: app.config.SIGNIN_RATE_LIMIT_WINDOW },
    app.limiterStore,
  );

  app.post(
    '/api/accounts/sign-in/mfa',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The second step of a sign-in: an app code, a recovery code or a passkey',
        description:
          'Answers as a sign-in does, with `amr` [pwd, otp] or [pwd, hwk] in the access token; the `mfaToken` is then used up. A wrong code answers 401 and counts on the token, and on the device cookie the account gave this browser or else on the account: after `MFA_RATE_LIMIT` within the window, 429 with Retry-After (ADR 011). A recovery code works once.',
        body: secondStepSchema,
        response: {
          200: ok(signedInSchema),
          400: errors[400],
          401: errors[401],
          429: errors[401].describe('Too many wrong codes; see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const { mfaToken, code, recoveryCode, passkey } = request.body;
      const challenge = await liveChallenge(app.db, mfaToken, ['second-step']);
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
      let method: AuthMethod = 'otp';
      let passed = false;
      if (code !== undefined) passed = await acceptTotpCode(app.db, user.id, code, true);
      else if (recoveryCode !== undefined)
        passed = await useRecoveryCode(app.db, user.id, recoveryCode);
      else if (passkey && challenge.webauthnChallenge) {
        method = 'hwk';
        const answer = passkey as unknown as AuthenticationResponseJSON;
        passed = Boolean(
          await verifyPasskey(app.db, rp, challenge.webauthnChallenge, answer, user.id),
        );
      }
      const audit = {
        companyId: user.companyId,
        actorId: user.id,
        actorName: user.userName,
        entityType: 'user',
        entityId: user.id,
        ...clientInfo(request),
      };
      const kind = code ? 'totp' : recoveryCode ? 'recovery-code' : 'passkey';
      if (!passed) {
        await limits.failed(attempt);
        await recordAudit(app.db, {
          ...audit,
          action: 'account.second-step-failed',
          after: { method: kind },
        });
        throw unauthorized(method === 'hwk' ? PASSKEY_FAILED : WRONG_STEP);
      }
      if (!(await consumeChallenge(app.db, challenge.id))) throw unauthorized(STEP_EXPIRED);
      await limits.succeeded(attempt);
      if (recoveryCode !== undefined) {
        await recordAudit(app.db, {
          ...audit,
          action: 'account.recovery-code-used',
          after: { left: await recoveryCodesLeft(app.db, user.id) },
        });
      }
      const signedIn = await finishSignIn(app, guard, request, reply, user, challenge.deviceId, [
        'pwd',
        method,
      ]);
      return envelope(signedIn, 'Signed in.');
    },
  );

  app.post(
    '/api/accounts/sign-in/mfa/passkey-options',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Options for the browser to sign with one of the account’s passkeys (second step)',
        body: z.object({ mfaToken: z.string().min(1).max(512) }),
        response: { 200: ok(options), 400: errors[400], 401: errors[401] },
      },
    },
    async (request) => {
      const challenge = await liveChallenge(app.db, request.body.mfaToken, ['second-step']);
      if (!challenge?.userId) throw unauthorized(STEP_EXPIRED);
      const webauthn = await authenticationOptions(app.db, rp, challenge.userId);
      await setWebauthnChallenge(app.db, challenge.id, webauthn.challenge);
      return envelope(webauthn as unknown as Record<string, unknown>);
    },
  );

  app.post(
    '/api/accounts/sign-in/passkey/options',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Options for "Sign in with a passkey" (any discoverable passkey of this site)',
        response: { 200: ok(options) },
      },
    },
    async () => {
      const webauthn = await authenticationOptions(app.db, rp, null);
      await openChallenge(app.db, {
        purpose: 'passkey-sign-in',
        userId: null,
        webauthnChallenge: webauthn.challenge,
        ttlSeconds,
      });
      return envelope(webauthn as unknown as Record<string, unknown>);
    },
  );

  app.post(
    '/api/accounts/sign-in/passkey',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with a passkey alone',
        description:
          'The passkey must have verified its user (PIN or biometrics); it then stands for both steps (`amr` [hwk]). Answers as a sign-in does; 401 when it does not verify.',
        body: z.object({ response: z.record(z.string(), z.unknown()) }),
        response: { 200: ok(signedInSchema), 400: errors[400], 401: errors[401] },
      },
    },
    async (request, reply) => {
      const answer = request.body.response as unknown as AuthenticationResponseJSON;
      const challenge = challengeOfAnswer(answer);
      const live = challenge && (await liveChallenge(app.db, challenge, ['passkey-sign-in']));
      if (!challenge || !live || !(await consumeChallenge(app.db, live.id)))
        throw unauthorized(PASSKEY_FAILED);
      const verified = await verifyPasskey(app.db, rp, challenge, answer, null);
      if (!verified) throw unauthorized(PASSKEY_FAILED);
      const user = await activeAccount(app, verified.userId);
      const deviceId = await guard.deviceFor(request, user);
      const signedIn = await finishSignIn(app, guard, request, reply, user, deviceId, ['hwk']);
      return envelope(signedIn, 'Signed in.');
    },
  );
}
