import type { FastifyInstance } from 'fastify';

/**
 * The portal's public signing keys (JWKS), for the Power 7 API to verify access tokens locally. Not
 * wrapped in the envelope: JWKS clients (jose's createRemoteJWKSet) expect the bare key set.
 */
export async function registerJwksRoute(app: FastifyInstance) {
  app.get(
    '/api/.well-known/jwks.json',
    { schema: { tags: ['accounts'], summary: 'Public keys that verify access tokens (JWKS)' } },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return app.signingKeys.jwks;
    },
  );
}
