import type { FastifyInstance } from 'fastify';
import { registerEndedSignInsRoute } from './ended-sign-ins';
import { registerJwksRoute } from './jwks';
import { registerMeRoutes } from './me';
import { registerPasswordRoutes } from './password';
import { registerSessionRoutes } from './sessions';
import { registerSignInRoutes } from './sign-in';

/** The accounts API (docs/product/services.md §4) and the public key set of the token contract. */
export async function registerAccountRoutes(app: FastifyInstance) {
  await app.register(registerJwksRoute);
  await app.register(registerEndedSignInsRoute);
  await app.register(registerSignInRoutes);
  await app.register(registerPasswordRoutes);
  await app.register(registerMeRoutes);
  await app.register(registerSessionRoutes);
}
