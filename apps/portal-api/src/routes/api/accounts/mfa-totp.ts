import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  enrolmentProofSchema,
  mfaStatusSchema,
  totpConfirmSchema,
  totpDisableSchema,
  totpSetupAnswerSchema,
} from '@pa/contracts/mfa';
import { conflict, invalidField } from '@pa/server-kit/errors';
import { auditFrom, recordAudit } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import { secondStepStatus } from '../../../modules/mfa/account-methods';
import { passkeysOf } from '../../../modules/mfa/passkeys';
import { mustHaveSecondStep } from '../../../modules/mfa/policy';
import { renewRecoveryCodes } from '../../../modules/mfa/recovery-codes';
import {
  acceptTotpCode,
  confirmTotp,
  hasTotp,
  otpauthUrl,
  removeTotp,
  setUpTotp,
} from '../../../modules/mfa/totp';
import { authOf } from '../../../plugins/app/auth';
import { finishEnrolment, secondStepCaller } from './mfa-caller';
import { authErrors, errors, ok, okEmpty, signedInSchema } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';

const WRONG_CODE = 'That code is not right. Check that your device’s clock is set automatically.';
const limited = { 429: errors[401].describe('Too many wrong passwords; see Retry-After') };

/**
 * Setting up and confirming the authenticator app: a signed-in account, or one in a forced
 * enrolment with its `mfaToken` (mfa-caller.ts checks either).
 */
export async function registerTotpRoutes(base: FastifyInstance, { guard }: { guard: SignInGuard }) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  /** The current password, then an unused code from the app: what changing the app or its codes takes. */
  app.post(
    '/api/accounts/mfa/totp/setup',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Start setting up an authenticator app: a new secret to scan',
        description:
          'Signed in: needs `currentPassword` (counted like a sign-in). In a forced enrolment: the enrolment `mfaToken` instead. Answers the base32 secret and its `otpauth://` URL; nothing counts until `confirm`. 409 while an app is already on.',
        security: [{ bearerAuth: [] }, {}],
        body: enrolmentProofSchema,
        response: {
          200: ok(totpSetupAnswerSchema),
          400: errors[400],
          401: errors[401],
          409: errors[400].describe('An authenticator app is already on'),
          ...limited,
        },
      },
    },
    async (request, reply) => {
      const caller = await secondStepCaller(app, guard, request, reply, request.body, true);
      const { user } = caller;
      if (await hasTotp(app.db, app.secretBox, user.id))
        throw conflict(
          'An authenticator app is already on. Turn it off before setting up another.',
        );
      const secret = await setUpTotp(app.db, app.secretBox, user);
      return envelope({ secret, otpauthUrl: otpauthUrl(secret, user.userName) });
    },
  );

  app.post(
    '/api/accounts/mfa/totp/confirm',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Turn the authenticator app on with a code from it; answers 10 recovery codes',
        description:
          'The recovery codes are shown this once (stored hashed). In a forced enrolment (with its `mfaToken`) the answer also carries `signIn`, what a sign-in answers.',
        security: [{ bearerAuth: [] }, {}],
        body: totpConfirmSchema,
        response: {
          200: ok(
            z.object({ recoveryCodes: z.array(z.string()), signIn: signedInSchema.nullable() }),
          ),
          400: errors[400],
          401: errors[401],
        },
      },
    },
    async (request, reply) => {
      const caller = await secondStepCaller(app, guard, request, reply, request.body, false);
      const { user } = caller;
      if (!(await acceptTotpCode(app.db, app.secretBox, user.id, request.body.code, false)))
        throw invalidField('code', WRONG_CODE);
      const codes = await confirmTotp(app.db, user.id);
      await recordAudit(app.db, {
        companyId: user.companyId,
        actorId: user.id,
        actorName: user.userName,
        action: 'account.mfa-enrolled',
        entityType: 'user',
        entityId: user.id,
        after: { method: 'totp', enforced: Boolean(caller.enrolment) },
        ...clientInfo(request),
      });
      const signIn = await finishEnrolment(app, guard, request, reply, caller, ['pwd', 'otp']);
      return envelope({ recoveryCodes: codes, signIn }, 'Authenticator app turned on.');
    },
  );
}

/**
 * The account's second steps (`GET /api/accounts/mfa`), new recovery codes, turning the app off.
 * Behind the signed-in group's `authenticate` hook (accounts/index.ts).
 */
export async function registerSignedInTotpRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const proveAppHolder = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    { currentPassword, code }: { currentPassword: string; code: string },
  ) => {
    await guard.proveCurrentPassword(request, reply, userId, currentPassword, 'second step change');
    if (!(await acceptTotpCode(app.db, app.secretBox, userId, code, true)))
      throw invalidField('code', WRONG_CODE);
  };

  app.get(
    '/api/accounts/mfa',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s second steps and whether their company requires one',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(mfaStatusSchema), 401: errors[401] },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const user = { id: auth.userId, companyId: auth.companyId };
      return envelope(await secondStepStatus(app.db, app.secretBox, user));
    },
  );

  app.post(
    '/api/accounts/mfa/recovery-codes',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Replace the recovery codes with 10 new ones (the old ones stop working)',
        description:
          'Needs the current password and a code from the authenticator app; answers the new codes this once (stored hashed). 409 when the app is not on.',
        security: [{ bearerAuth: [] }],
        body: totpDisableSchema,
        response: {
          200: ok(z.object({ recoveryCodes: z.array(z.string()) })),
          400: errors[400],
          ...authErrors,
          409: errors[400].describe('The authenticator app is not on'),
          ...limited,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      if (!(await hasTotp(app.db, app.secretBox, auth.userId)))
        throw conflict('Recovery codes come with the authenticator app: turn it on first.');
      await proveAppHolder(request, reply, auth.userId, request.body);
      const codes = await renewRecoveryCodes(app.db, auth.userId);
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'account.recovery-codes-renewed',
        entityType: 'user',
        entityId: auth.userId,
      });
      return envelope(
        { recoveryCodes: codes },
        'New recovery codes made; the old ones no longer work.',
      );
    },
  );

  app.post(
    '/api/accounts/mfa/totp/disable',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Turn the authenticator app off (and its recovery codes)',
        description:
          'Needs the current password and a code from the app. 409 when the company requires a second step and no passkey would remain.',
        security: [{ bearerAuth: [] }],
        body: totpDisableSchema,
        response: {
          200: okEmpty,
          400: errors[400],
          ...authErrors,
          409: errors[400].describe('The company requires a second step'),
          ...limited,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await proveAppHolder(request, reply, auth.userId, request.body);
      const keys = await passkeysOf(app.db, auth.userId);
      if (
        keys.length === 0 &&
        (await mustHaveSecondStep(app.db, { id: auth.userId, companyId: auth.companyId }))
      )
        throw conflict(
          'Your company requires a second step: add a passkey before turning the app off.',
        );
      await removeTotp(app.db, auth.userId);
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'account.mfa-disabled',
        entityType: 'user',
        entityId: auth.userId,
        after: { method: 'totp' },
      });
      return envelope(null, 'Authenticator app turned off.');
    },
  );
}
