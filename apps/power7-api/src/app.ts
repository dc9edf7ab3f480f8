import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, fail, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { allowOrigins } from '@pa/server-kit/cors';
import { errorHandler } from '@pa/server-kit/error-handler';
import { healthRoutes, runChecks, type ReadinessCheck } from '@pa/server-kit/health';
import { loggerOptions } from '@pa/server-kit/logger';
import { openApi } from '@pa/server-kit/openapi';
import { securityHeadersPlugin } from '@pa/server-kit/security-headers';
import { prestartScanWorkers } from '@pa/power7-engine/session-store';
import { authPlugin, keySource } from './auth/auth';
import type { Power7Config } from './config';
import { openDatabase } from './db/client';
import type { JobQueue } from './jobs/job-queue';
import { power7Routes } from './routes/power7';
import { SessionRepository } from './sessions/repository';
import { engineErrorToApp } from './sessions/engine-errors';
import { ResultCache } from './sessions/result-cache';
import { Power7Sessions } from './sessions/service';

const version = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  }
).version;

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

/** Builds the Power 7 service from its plugins; `server.ts` only starts it, tests call it directly. */
export async function buildPower7App(config: Power7Config) {
  const app = Fastify(loggerOptions(config.LOG_LEVEL)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const startedAt = Date.now();

  // Storage first: the metadata database (its own PGlite folder, or DATABASE_URL) and the sessions root.
  const database = await openDatabase(config);
  const repo = new SessionRepository(database.db);
  const cache = new ResultCache(config.RESULT_CACHE_MB * 1024 * 1024);
  const sessions = new Power7Sessions(repo, cache, {
    root: path.join(config.DATA_DIR, 'power7'),
    workers: config.WORKER_THREADS,
    concurrency: config.JOB_CONCURRENCY,
    ttlHours: config.SESSION_TTL_HOURS,
    log: app.log,
  });
  await sessions.checkStorage();
  const queue = sessions.jobs.queue;
  const keys = keySource(config);

  app.decorate('power7', { sessions, queue, cache, database });

  // helmet's default headers, computed once (as the portal does)
  await app.register(securityHeadersPlugin, {});
  // Only the web app's origin may call this API from a browser (it sends X-CSRFToken too).
  await app.register(cors, {
    // A refused origin gets no CORS header at all (a plain list still sends allow-credentials).
    origin: allowOrigins(config.CORS_ORIGINS),
    credentials: true,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-CSRFToken', 'X-Requested-With'],
    exposedHeaders: ['Content-Disposition'],
  });
  await app.register(errorHandler, { mapError: engineErrorToApp });
  await app.register(multipart, {
    limits: {
      fileSize: config.UPLOAD_MAX_BYTES,
      files: 1,
      fields: 20,
      fieldSize: 1_000,
      parts: 30,
    },
  });
  await app.register(openApi, {
    title: 'Power Analyzer Power 7 API',
    description:
      'Upload customer files, analyse every draw, filter, list winners and download them.',
    version,
  });
  await app.register(authPlugin, { keys });

  const checks = (): ReadinessCheck[] => [
    { name: 'storage', check: () => sessions.checkStorage() },
    { name: 'database', check: () => database.check() },
    { name: 'workers', check: checkWorkers },
    { name: 'keys', check: () => keys.check() },
  ];
  await app.register(healthRoutes, { service: 'power7-api', checks });

  app.get(
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

  app.get(
    '/api/status/',
    {
      schema: {
        tags: ['system'],
        summary: 'Version, uptime and job counts',
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
      }),
  );

  await app.register(async (scope) => power7Routes(scope, sessions));

  // Expired sessions go with their files: once at start, then every 10 minutes (or sooner for short TTLs).
  const sweepEvery = Math.min(600_000, Math.max(1_000, config.SESSION_TTL_HOURS * 3_600_000));
  const sweep = (orphanAgeMs?: number) =>
    sessions
      .sweep(new Date(), orphanAgeMs)
      .catch((error: unknown) => app.log.warn({ err: error }, 'sweep failed'));
  const sweeper = setInterval(() => void sweep(), sweepEvery);
  sweeper.unref();

  app.addHook('onReady', async () => {
    // the first analysis finds its worker threads started and their kernels warmed
    if (config.WORKER_THREADS !== 1) prestartScanWorkers(config.WORKER_THREADS || undefined);
    // before listening no upload can be in progress: a folder without a session row is a leftover now
    await sweep(0);
    // A job cut off by a crash or a stop is run again.
    const recovered = await sessions.jobs.recover();
    if (recovered) app.log.info({ recovered }, 'Power 7 jobs re-queued after a restart');
  });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await queue.close();
    cache.clear();
    await database.close();
  });
  return app;
}

export interface Power7Internals {
  sessions: Power7Sessions;
  queue: JobQueue;
  cache: ResultCache;
  database: Awaited<ReturnType<typeof openDatabase>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    power7: Power7Internals;
  }
}
