import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { ok as envelope } from '@pa/contracts/envelope';
import {
  enrolmentProofSchema,
  passkeyNameSchema,
  passkeyRegisterSchema,
  passkeySchema,
} from '@pa/contracts/mfa';
import { conflict, invalidField, notFound } from '@pa/server-kit/errors';
import { auditFrom, recordAudit } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import { consumeChallenge, liveChallenge, openChallenge } from '../../../modules/mfa/challenges';
import {
  challengeOfAnswer,
  passkeysOf,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from '../../../modules/mfa/passkeys';
import { mustHaveSecondStep } from '../../../modules/mfa/policy';
import { relyingPartyOf } from '../../../modules/mfa/relying-party';
import { hasTotp } from '../../../modules/mfa/totp';
import { authOf } from '../../../plugins/app/auth';
import { finishEnrolment, secondStepCaller } from './mfa-caller';
import { authErrors, errors, idParams, ok, okEmpty, signedInSchema } from './schemas';
import type { SignInGuard } from '../../../modules/sign-in/guard';

const options = z.record(z.string(), z.unknown());

/**
 * Registering a passkey (named): a signed-in account, or one in a forced enrolment with its
 * `mfaToken` (mfa-caller.ts checks either).
 */
export async function registerPasskeyRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const rp = relyingPartyOf(app.config.PUBLIC_URL);

  app.post(
    '/api/accounts/passkeys/options',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Options for the browser to create a passkey (WebAuthn registration)',
        description:
          'Signed in: needs `currentPassword`. In a forced enrolment: the enrolment `mfaToken`. The challenge lives `MFA_TOKEN_TTL` seconds.',
        security: [{ bearerAuth: [] }, {}],
        body: enrolmentProofSchema,
        response: { 200: ok(options), 400: errors[400], 401: errors[401] },
      },
    },
    async (request, reply) => {
      const { user } = await secondStepCaller(app, guard, request, reply, request.body, true);
      const creation = await registrationOptions(app.db, rp, user);
      await openChallenge(app.db, {
        purpose: 'passkey-register',
        userId: user.id,
        webauthnChallenge: creation.challenge,
        ttlSeconds: app.config.MFA_TOKEN_TTL,
      });
      return envelope(creation as unknown as Record<string, unknown>);
    },
  );

  app.post(
    '/api/accounts/passkeys',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Store a new passkey from the browser’s registration answer',
        description:
          'In a forced enrolment (with its `mfaToken`) the answer also carries `signIn`, what a sign-in answers.',
        security: [{ bearerAuth: [] }, {}],
        body: passkeyRegisterSchema,
        response: {
          200: ok(
            z.object({ passkey: z.object({ _id: z.string() }), signIn: signedInSchema.nullable() }),
          ),
          400: errors[400],
          401: errors[401],
        },
      },
    },
    async (request, reply) => {
      const caller = await secondStepCaller(app, guard, request, reply, request.body, false);
      const { user } = caller;
      const answer = request.body.response as unknown as RegistrationResponseJSON;
      const challenge = challengeOfAnswer(answer);
      const live = challenge && (await liveChallenge(app.db, challenge, ['passkey-register']));
      if (
        !challenge ||
        !live ||
        live.userId !== user.id ||
        !(await consumeChallenge(app.db, live.id))
      )
        throw invalidField('response', 'This passkey request has expired. Please try again.');
      const added = await registerPasskey(app.db, rp, user, challenge, answer, request.body.name);
      if (!added) throw invalidField('response', 'The passkey could not be verified.');
      await recordAudit(app.db, {
        companyId: user.companyId,
        actorId: user.id,
        actorName: user.userName,
        action: 'account.passkey-added',
        entityType: 'passkey',
        entityId: added.id,
        after: { name: request.body.name, enforced: Boolean(caller.enrolment) },
        ...clientInfo(request),
      });
      const signIn = await finishEnrolment(app, guard, request, reply, caller, ['pwd', 'hwk']);
      return envelope({ passkey: { _id: added.id }, signIn }, 'Passkey added.');
    },
  );
}

/**
 * Listing, renaming and removing the account's passkeys.
 * Behind the signed-in group's `authenticate` hook (accounts/index.ts).
 */
export async function registerSignedInPasskeyRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/passkeys',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s passkeys',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(z.array(passkeySchema)), 401: errors[401] },
      },
    },
    async (request) => {
      const keys = await passkeysOf(app.db, authOf(request).userId);
      return envelope(
        keys.map((key) => ({
          _id: key.id,
          name: key.name,
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        })),
      );
    },
  );

  app.patch(
    '/api/accounts/passkeys/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Rename one of your passkeys',
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: z.object({ name: passkeyNameSchema }),
        response: { 200: okEmpty, 400: errors[400], ...authErrors, 404: errors[400] },
      },
    },
    async (request) => {
      const auth = authOf(request);
      if (!(await renamePasskey(app.db, auth.userId, request.params.id, request.body.name)))
        throw notFound('The passkey');
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'account.passkey-renamed',
        entityType: 'passkey',
        entityId: request.params.id,
        after: { name: request.body.name },
      });
      return envelope(null, 'Passkey renamed.');
    },
  );

  app.delete(
    '/api/accounts/passkeys/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Remove one of your passkeys',
        description:
          '409 when the company requires a second step and this passkey is the last one left.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: okEmpty, ...authErrors, 404: errors[400], 409: errors[400] },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const keys = await passkeysOf(app.db, auth.userId);
      const key = keys.find((k) => k.id === request.params.id);
      if (!key) throw notFound('The passkey');
      const last = keys.length === 1 && !(await hasTotp(app.db, app.secretBox, auth.userId));
      if (
        last &&
        (await mustHaveSecondStep(app.db, { id: auth.userId, companyId: auth.companyId }))
      )
        throw conflict('Your company requires a second step: this is your last one.');
      await removePasskey(app.db, auth.userId, key.id);
      await recordAudit(app.db, {
        ...auditFrom(request),
        action: 'account.passkey-removed',
        entityType: 'passkey',
        entityId: key.id,
        before: { name: key.name },
      });
      return envelope(null, 'Passkey removed.');
    },
  );
}
