import type { FastifyInstance } from 'fastify';
import { registerJwksRoute } from './jwks';

/** The accounts API (PRODUCT.md §4) and the public key set of the token contract. */
export async function registerAccountRoutes(app: FastifyInstance) {
  await app.register(registerJwksRoute);
}
