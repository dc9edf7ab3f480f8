import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { PASSWORD_MAX_LENGTH } from '@pa/contracts/accounts';
import { mfaChallengeSchema } from '@pa/contracts/mfa';
import { singleLineText } from '@pa/contracts/text';
import { notFound, unauthorized } from '@pa/server-kit/errors';
import { loadUserDetails } from '../../../modules/accounts/user-details';
import type { SignInGuard } from '../../../modules/sign-in/guard';
import {
  clearRefreshCookie,
  refreshTokenOf,
  setRefreshCookie,
} from '../../../modules/sign-in/refresh-cookie';
import { rotateSignInToken, signInWithPassword, signOutOf } from '../../../modules/sign-in/sign-in';
import { authOf } from '../../../plugins/app/auth';
import { errors, ok, okEmpty, signedInSchema, tokenPairSchema, userDetailsSchema } from './schemas';

const REFRESH_FAILED = 'Token refresh failed';

/** `{ userName | email, password }`: exactly one of userName or email. */
const signInBody = z
  .object({
    userName: singleLineText().trim().min(1, 'Enter your user name').max(254).optional(),
    email: singleLineText().trim().min(1, 'Enter your email').max(254).optional(),
    password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
  })
  .refine((body) => Boolean(body.userName) !== Boolean(body.email), {
    message: 'Give either userName or email',
    path: ['userName'],
  });

const verifyAnswer = ok(userDetailsSchema);

const rotateBody = z.object({ refreshToken: z.string().max(512).optional() }).nullish();

/** Sign-in, token rotation and sign-out (docs/product/services.md §4, seed "Calls"); verify below. */
export async function registerSignInRoutes(
  base: FastifyInstance,
  { guard }: { guard: SignInGuard },
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app;

  app.post(
    '/api/accounts/sign-in',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with user name or email and password',
        description:
          'Answers tokens and user details and sets the `refreshToken` cookie and the HttpOnly `signInDevice` cookie (path /api/accounts). Every failure says "Invalid credentials." and takes the same time. Failures are limited per login (as typed) and address, per address, and per login with growing delays and a ceiling (429 with Retry-After); a client presenting the account\'s device cookie is limited by its own failures only (docs/reference/portal-api.md "Sign-in limits", ADR 007). An account with a second step, or one its company requires to enrol, gets `{ mfaRequired: true, enrolmentRequired, mfaToken, methods }` and no tokens or cookies: see `POST /api/accounts/sign-in/mfa` (docs/reference/two-step-sign-in.md).',
        body: signInBody,
        response: {
          200: ok(z.union([signedInSchema, mfaChallengeSchema])),
          ...errors,
          429: errors[401].describe('Too many attempts; see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const outcome = await signInWithPassword(app, guard, request, reply, request.body);
      if ('next' in outcome) return envelope(outcome.next, 'Enter your second step.');
      return envelope(outcome.signedIn, 'Signed in.');
    },
  );

  app.post(
    '/api/accounts/rotate-token',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Exchange a refresh token (cookie or body) for a new token pair',
        description:
          'Single use: the presented token is consumed and a new one issued (and set as cookie). Presenting an already-used token ends that whole sign-in (reuse detection), except within `REFRESH_REUSE_GRACE` seconds of its use while its successor is unused (a client that lost the answer): then the successor is withdrawn and a new pair issued.',
        body: rotateBody,
        response: { 200: ok(tokenPairSchema), 401: errors[401] },
      },
    },
    async (request, reply) => {
      const presented = refreshTokenOf(request);
      const tokens = presented ? await rotateSignInToken(app, request, presented) : null;
      if (!tokens) {
        clearRefreshCookie(reply);
        throw unauthorized(REFRESH_FAILED);
      }
      setRefreshCookie(reply, tokens.refreshToken, config.REFRESH_TOKEN_TTL);
      return envelope({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
    },
  );

  app.post(
    '/api/accounts/signout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'End this sign-in (idempotent) and clear the refresh cookie',
        description:
          'Ends the sign-in named by the bearer access token and/or the refresh token (cookie or body). Always answers 200.',
        body: rotateBody,
        response: { 200: okEmpty },
      },
    },
    async (request, reply) => {
      await signOutOf(app, request, refreshTokenOf(request));
      clearRefreshCookie(reply);
      return envelope(null, 'Signed out.');
    },
  );
}

/**
 * Whether the access token still opens the account (`GET /api/accounts/verify`).
 * Behind the signed-in group's `authenticate` hook (accounts/index.ts).
 */
export async function registerSignedInVerifyRoute(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/verify',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s details (also an authentication check)',
        security: [{ bearerAuth: [] }],
        response: { 200: ok(userDetailsSchema), 401: errors[401] },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      // The answer is kept in the auth cache like the caller's permissions (re-read after any write,
      // ADR 004), validated and serialised once: verify is what clients call the most.
      const body = await app.authCache.get('verify', auth.userId, async () => {
        const details = await loadUserDetails(app.db, auth.userId, auth.permissions);
        return details ? Buffer.from(JSON.stringify(verifyAnswer.parse(envelope(details)))) : null;
      });
      if (!body) throw notFound('The account');
      // Already serialised (the route schema still documents it): sent as bytes, not re-serialised.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
}
