import type { FastifyInstance } from 'fastify';
import { registerEndedSignInsRoute } from './ended-sign-ins';
import { registerJwksRoute } from './jwks';
import { registerMeRoutes, registerSignedInMeRoutes } from './me';
import { registerSignedInTotpRoutes, registerTotpRoutes } from './mfa-totp';
import { registerPasskeyRoutes, registerSignedInPasskeyRoutes } from './passkeys';
import { registerPasswordChangeRoute, registerPasswordRoutes } from './password';
import { registerSignInListRoutes } from './sign-ins';
import { registerSignedInVerifyRoute, registerSignInRoutes } from './sign-in';
import { registerSecondStepRoutes } from './sign-in-mfa';
import { SignInGuard } from '../../../modules/sign-in/guard';
import { registerAcceptInvitationRoutes } from '../invitations/accept';

/**
 * The accounts API (docs/product/services.md §4) and the public key set of the token contract. The
 * public routes (sign-in, token rotation, sign-out, password reset, email change confirm and undo,
 * accepting an invitation, JWKS, ended sign-ins) and those that take either a bearer token or an
 * enrolment's `mfaToken` (mfa-caller.ts) are registered here; every other one in the signed-in group.
 */
export async function registerAccountRoutes(app: FastifyInstance) {
  await app.register(registerJwksRoute);
  await app.register(registerEndedSignInsRoute);
  // One guard for every call that checks a password, so they share the sign-in limits (ADR 007).
  const guard = new SignInGuard(app);
  await app.register(registerSignInRoutes, { guard });
  await app.register(registerPasswordRoutes);
  await app.register(registerMeRoutes);
  await app.register(registerSecondStepRoutes, { guard });
  await app.register(registerTotpRoutes, { guard });
  await app.register(registerPasskeyRoutes, { guard });
  // Accepting an invitation ends in a sign-in: same guard (device cookie) as the sign-in itself.
  await app.register(registerAcceptInvitationRoutes, { guard });
  await app.register(signedInAccountRoutes, { guard });
}

/**
 * The routes of a signed-in account: authentication declared once for the group, first thing (401 in
 * the envelope before the body is read). Encapsulated, so the hook reaches only these routes.
 */
async function signedInAccountRoutes(app: FastifyInstance, { guard }: { guard: SignInGuard }) {
  app.addHook('onRequest', app.authenticate);
  await app.register(registerSignedInVerifyRoute);
  await app.register(registerPasswordChangeRoute, { guard });
  await app.register(registerSignedInMeRoutes, { guard });
  await app.register(registerSignInListRoutes);
  await app.register(registerSignedInTotpRoutes, { guard });
  await app.register(registerSignedInPasskeyRoutes);
}
