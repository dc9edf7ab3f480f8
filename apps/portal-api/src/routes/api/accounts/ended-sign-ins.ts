import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { endedSignIns } from '../../../modules/auth/ended-sign-ins';
import { ok } from './schemas';

/** How long one answer is reused: every Power 7 process polls, the database is asked once a second. */
const REUSE_MS = 1_000;
/** Past the access-token lifetime, for clocks that differ a little. */
const SLACK_SECONDS = 60;

export const endedSignInsSchema = z.object({
  /**
   * Sign-ins that ended while their tokens may still be unexpired, each as the SHA-256 (hex) of its
   * id, the `sid` of its access tokens (`endedSignInKey`): the ids are UUIDv7 and would tell when
   * every company's users signed in. The name stays for the services that read it.
   */
  sessionIds: z.array(z.string()),
  /** How far back the list reaches, in seconds: the access-token lifetime plus a minute. */
  windowSeconds: z.number().int(),
});

/**
 * `GET /api/.well-known/revoked-sessions`: the sign-ins that ended recently, for the Power 7 API,
 * which verifies access tokens locally and polls this every few seconds. Public like the JWKS: it
 * holds hashes of sign-in ids only (no user, company, reason or sign-in time), useless without a
 * token whose `sid` hashes to one. The URL and the `sessionIds` field keep the old word for sign-ins:
 * Power 7 and other services read them (docs/glossary.md).
 */
export async function registerEndedSignInsRoute(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const windowSeconds = app.config.ACCESS_TOKEN_TTL + SLACK_SECONDS;
  let cached: { at: number; keys: Promise<string[]> } | null = null;
  app.get(
    '/api/.well-known/revoked-sessions',
    {
      // Power 7 polls this every 2 s: its request lines would drown the log at `info`.
      logLevel: 'warn',
      schema: {
        tags: ['accounts'],
        summary:
          'Sign-ins ended within the access-token lifetime (for services that verify tokens)',
        response: { 200: ok(endedSignInsSchema) },
      },
    },
    async (_request, reply) => {
      const now = Date.now();
      if (!cached || now - cached.at >= REUSE_MS) {
        const keys = endedSignIns(app.db, windowSeconds);
        cached = { at: now, keys };
        keys.catch(() => {
          if (cached?.keys === keys) cached = null;
        });
      }
      void reply.header('cache-control', 'no-store');
      return envelope({ sessionIds: await cached.keys, windowSeconds });
    },
  );
}
