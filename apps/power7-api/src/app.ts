import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { openAdminChannel } from '@pa/server-kit/admin-channel';
import { controlCharacterGuard } from '@pa/server-kit/control-characters';
import { loggerOptions } from '@pa/server-kit/logger';
import { metricsPlugin } from '@pa/server-kit/metrics';
import { openApi } from '@pa/server-kit/openapi';
import { securityHeadersPlugin } from '@pa/server-kit/security-headers';
import type { Power7Config } from './config';
import { openDatabase, type OpenDatabase } from './db/client';
import { power7Metrics } from './plugins/app/metrics';
import { queuePlugin } from './plugins/app/queue';
import { sessionsPlugin } from './plugins/app/sessions';
import { booksPlugin } from './plugins/app/books';
import { keySource } from './plugins/external/auth';
import { corsPlugin } from './plugins/external/cors';
import { power7ErrorHandler } from './plugins/external/error-handler';
import { multipartPlugin } from './plugins/external/multipart';
import { endedSignInsFor } from './modules/revocation/ended-sign-ins';
import { power7Routes } from './routes/api/power7/index';
import { systemRoutes } from './routes/api/system/index';

const version = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  }
).version;

export interface Power7BuildOptions {
  /**
   * The database already being opened from the config (`server.ts` starts it before loading this
   * module, so the two overlap); otherwise opened here. Closed with the app either way.
   */
  openingDatabase?: Promise<OpenDatabase>;
}

/** Builds the Power 7 service from its plugins; `server.ts` only starts it, tests call it directly. */
export async function buildPower7App(config: Power7Config, options: Power7BuildOptions = {}) {
  // with many processes (REDIS_URL), each line says which role wrote it (pid and host are always there)
  const base = config.REDIS_URL ? { role: config.ROLE } : undefined;
  const app = Fastify(
    loggerOptions(config.LOG_LEVEL, undefined, base),
  ).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const keys = keySource(config);

  // Storage and jobs first (`app.jobQueue`, then `app.power7`: database, sessions root, result cache,
  // job runner on that queue). The database (its own PGlite folder, or DATABASE_URL) opens outside any
  // plugin: a new PGlite folder on a busy machine can take longer than Fastify's 10 s plugin start limit.
  const database = await (options.openingDatabase ?? openDatabase(config));
  await app.register(queuePlugin, { config });
  await app.register(sessionsPlugin, { config, database });
  await app.register(booksPlugin, { config, database });
  // On its own PGlite folder, `npm run admin -- backup` asks this process for a consistent dump.
  const { dump } = database;
  if (dump) {
    let closeChannel: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      closeChannel = await openAdminChannel(
        config.DATA_DIR,
        'power7',
        (channel) =>
          channel.post('/backup/database', async (_request, reply) =>
            reply.type('application/gzip').send(Buffer.from(await (await dump()).arrayBuffer())),
          ),
        app.log,
      );
    });
    app.addHook('preClose', async () => {
      await closeChannel?.();
    });
  }
  // Order matters: security headers, CORS and the error handler wrap every route registered after them.
  // helmet's default headers, computed once (as the portal does).
  await app.register(securityHeadersPlugin, {});
  await app.register(corsPlugin, { origins: config.CORS_ORIGINS });
  await app.register(power7ErrorHandler);
  await app.register(metricsPlugin, { enabled: config.METRICS, service: 'power7-api' });
  // NUL and other control characters in any query, path parameter or JSON body: 400 naming the field.
  await app.register(controlCharacterGuard);
  await app.register(multipartPlugin, { fileBytes: config.UPLOAD_MAX_BYTES });
  await app.register(openApi, {
    title: 'Power Analyzer Power 7 API',
    description:
      'Upload customer files, analyse every draw, filter, list winners and download them.',
    version,
  });
  // A worker process runs jobs; it answers only the health and readiness checks, takes no tokens and
  // so needs no list of ended sign-ins. Elsewhere the first read is done before the app is ready.
  const ended = config.ROLE === 'worker' ? null : endedSignInsFor(config, database);
  if (ended) {
    app.addHook('onClose', async () => ended.stop());
    await ended.start(app.log);
  }
  power7Metrics(app, ended);
  await app.register(systemRoutes, {
    keys,
    ended,
    version,
    uploadMaxBytes: config.UPLOAD_MAX_BYTES,
  });
  if (ended) await app.register(power7Routes, { keys, ended });
  return app;
}
