import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { envelopeSchema, fail, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';

/** A named readiness check; it throws or returns false when the dependency is not usable. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<boolean | void> | boolean | void;
}

export interface HealthOptions {
  service: string;
  checks: () => ReadinessCheck[];
}

/** Runs every check, never throwing; each result says whether it passed and, if not, why. */
export async function runChecks(checks: ReadinessCheck[]) {
  return Promise.all(
    checks.map(async ({ name, check }) => {
      const started = performance.now();
      try {
        const result = await check();
        const okay = result !== false;
        return {
          name,
          ok: okay,
          ms: Math.round(performance.now() - started),
          ...(okay ? {} : { error: 'check failed' }),
        };
      } catch (error) {
        return {
          name,
          ok: false,
          ms: Math.round(performance.now() - started),
          error: (error as Error).message,
        };
      }
    }),
  );
}

const readinessSchema = z.object({
  service: z.string(),
  ready: z.boolean(),
  checks: z.array(
    z.object({ name: z.string(), ok: z.boolean(), ms: z.number(), error: z.string().optional() }),
  ),
});

/**
 * `/api/live/` answers while the process runs; `/api/ready/` only when every dependency check passes
 * (503 otherwise), so a load balancer can tell "up" from "usable".
 */
export const healthRoutes = fp<HealthOptions>(
  async function healthRoutes(app: FastifyInstance, options: HealthOptions) {
    app.get(
      '/api/live/',
      {
        schema: {
          tags: ['system'],
          summary: 'Liveness: the process answers (no dependency is checked)',
          response: {
            200: envelopeSchema(z.object({ service: z.string(), live: z.literal(true) })),
          },
        },
      },
      async () => ok({ service: options.service, live: true }),
    );
    app.get(
      '/api/ready/',
      {
        schema: {
          tags: ['system'],
          summary: 'Readiness: every dependency check passes (503 names the ones that failed)',
          response: {
            200: envelopeSchema(readinessSchema),
            503: envelopeSchema(readinessSchema).describe(
              'Not ready: `errors` names each failed check, `data.checks` has every result',
            ),
          },
        },
      },
      async (_request, reply) => {
        const results = await runChecks(options.checks());
        const ready = results.every((result) => result.ok);
        if (!ready) {
          const failed = results.filter((result) => !result.ok);
          return reply.status(503).send({
            ...fail(
              ErrorCode.SERVICE_UNAVAILABLE,
              `Not ready: ${failed.map((f) => f.name).join(', ')}`,
              failed.map((f) => ({
                message: `${f.name}: ${f.error ?? 'failed'}`,
                code: ErrorCode.SERVICE_UNAVAILABLE,
              })),
            ),
            data: { service: options.service, ready, checks: results },
          });
        }
        return ok({ service: options.service, ready, checks: results });
      },
    );
  },
  { name: 'health-routes' },
);
