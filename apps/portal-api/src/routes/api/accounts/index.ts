import type { FastifyInstance } from 'fastify';
import { registerEndedSignInsRoute } from './ended-sign-ins';
import { registerJwksRoute } from './jwks';
import { registerMeRoutes } from './me';
import { registerTotpRoutes } from './mfa-totp';
import { registerPasskeyRoutes } from './passkeys';
import { registerPasswordRoutes } from './password';
import { registerSignInListRoutes } from './sign-ins';
import { registerSignInRoutes } from './sign-in';
import { registerSecondStepRoutes } from './sign-in-mfa';
import { SignInGuard } from '../../../modules/sign-in/guard';
import { registerAcceptInvitationRoutes } from '../users/accept-invitation';

/** The accounts API (docs/product/services.md §4) and the public key set of the token contract. */
export async function registerAccountRoutes(app: FastifyInstance) {
  await app.register(registerJwksRoute);
  await app.register(registerEndedSignInsRoute);
  // One guard for every call that checks a password, so they share the sign-in limits (ADR 007).
  const guard = new SignInGuard(app);
  await app.register(registerSignInRoutes, { guard });
  await app.register(registerPasswordRoutes, { guard });
  await app.register(registerMeRoutes, { guard });
  await app.register(registerSignInListRoutes);
  await app.register(registerSecondStepRoutes, { guard });
  await app.register(registerTotpRoutes, { guard });
  await app.register(registerPasskeyRoutes, { guard });
  // Accepting an invitation ends in a sign-in: same guard (device cookie) as the sign-in itself.
  await app.register(registerAcceptInvitationRoutes, { guard });
}
