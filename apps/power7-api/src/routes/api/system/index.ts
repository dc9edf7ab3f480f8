import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, fail, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { healthRoutes, runChecks, type ReadinessCheck } from '@pa/server-kit/health';
import type { KeySource } from '../../../plugins/external/auth';
import type { EndedSignIns } from '../../../modules/revocation/ended-sign-ins';

/** Readiness of worker threads: one starts, answers and exits. */
function checkWorkers(): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(6 * 7)", {
      eval: true,
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('a worker thread did not answer within 5 s'));
    }, 5_000);
    worker.once('message', (value) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(value === 42);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Liveness, readiness, every check with its details, and the service's status (version, jobs). */
export async function systemRoutes(
  app: FastifyInstance,
  {
    keys,
    ended,
    version,
    uploadMaxBytes,
  }: { keys: KeySource; ended: EndedSignIns | null; version: string; uploadMaxBytes: number },
) {
  const { sessions, queue, cache, database } = app.power7;
  const startedAt = Date.now();
  const checks = (): ReadinessCheck[] => [
    { name: 'storage', check: () => sessions.checkStorage() },
    { name: 'database', check: () => database.check() },
    { name: 'workers', check: checkWorkers },
    { name: 'keys', check: () => keys.check() },
    // tokens are refused (fail closed) without a fresh list of ended sign-ins: not ready either
    ...(ended ? [{ name: 'ended-sign-ins', check: () => ended.check() }] : []),
    ...(queue.check ? [{ name: 'redis', check: () => queue.check!() }] : []),
  ];
  await app.register(healthRoutes, { service: 'power7-api', checks });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health/',
    {
      schema: {
        tags: ['system'],
        summary: 'Every dependency check with its details',
        response: {
          200: envelopeSchema(z.unknown()),
          503: envelopeSchema(z.unknown()),
        },
      },
    },
    async (_request, reply) => {
      const results = await runChecks(checks());
      const data = {
        service: 'power7-api',
        healthy: results.every((c) => c.ok),
        checks: results,
        database: database.driver,
        jobs: queue.stats(),
        cache: cache.stats(),
        memory: { rss: process.memoryUsage().rss },
      };
      if (!data.healthy) {
        return reply
          .status(503)
          .send({ ...fail(ErrorCode.SERVICE_UNAVAILABLE, 'Some checks failed.'), data });
      }
      return ok(data);
    },
  );

  r.get(
    '/api/status/',
    {
      schema: {
        tags: ['system'],
        summary: 'Version, uptime, job counts and the largest upload accepted',
        response: {
          200: envelopeSchema(
            z.object({
              service: z.string(),
              version: z.string(),
              uptimeSeconds: z.number(),
              jobs: z.object({
                queued: z.number(),
                running: z.number(),
                done: z.number(),
                failed: z.number(),
                cancelled: z.number(),
                concurrency: z.number(),
              }),
              cache: z.object({ sessions: z.number(), bytes: z.number(), budgetBytes: z.number() }),
              /** UPLOAD_MAX_BYTES, so the web app can refuse a larger file before sending it. */
              uploadMaxBytes: z.number(),
            }),
          ),
        },
      },
    },
    async () =>
      ok({
        service: 'power7-api',
        version,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        jobs: queue.stats(),
        cache: cache.stats(),
        uploadMaxBytes,
      }),
  );
}
