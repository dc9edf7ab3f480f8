import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * A JWK set (RFC 7517) of Ed25519 public keys. The serialiser sends these fields only, so a private
 * part (`d`) could never go out.
 */
const jwksSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      crv: z.string(),
      x: z.string(),
      kid: z.string(),
      alg: z.string(),
      use: z.string(),
    }),
  ),
});

/**
 * The portal's public signing keys (JWKS), for the Power 7 API to verify access tokens locally. Not
 * wrapped in the envelope: JWKS clients (jose's createRemoteJWKSet) expect the bare key set.
 */
export async function registerJwksRoute(app: FastifyInstance) {
  app.get(
    '/api/.well-known/jwks.json',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Public keys that verify access tokens (JWKS)',
        response: {
          200: jwksSchema.describe('The JWK set (not an envelope: JWKS clients expect it bare)'),
        },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return app.signingKeys.jwks;
    },
  );
}
