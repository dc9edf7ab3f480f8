import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { secondStepSchema } from '@pa/contracts/mfa';
import type { SignInGuard } from '../../../modules/sign-in/guard';
import { SecondStepSignIn } from '../../../modules/sign-in/second-step-sign-in';
import { errors, ok, signedInSchema } from './schemas';

const options = z.record(z.string(), z.unknown());

/** The second step of a sign-in, and signing in with a passkey on its own (modules/sign-in/second-step-sign-in.ts). */
export async function registerSecondStepRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const secondStep = new SecondStepSignIn(app, guard);

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
    async (request, reply) =>
      envelope(await secondStep.answer(request, reply, request.body), 'Signed in.'),
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
    async (request) => envelope(await secondStep.stepPasskeyOptions(request.body.mfaToken)),
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
    async () => envelope(await secondStep.passkeyOptions()),
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
    async (request, reply) =>
      envelope(await secondStep.withPasskey(request, reply, request.body.response), 'Signed in.'),
  );
}
