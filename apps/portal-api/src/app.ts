import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import { Counter } from 'prom-client';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { openAdminChannel } from '@pa/server-kit/admin-channel';
import { controlCharacterGuard } from '@pa/server-kit/control-characters';
import { allowOrigins } from '@pa/server-kit/cors';
import { errorHandler } from '@pa/server-kit/error-handler';
import { healthRoutes } from '@pa/server-kit/health';
import { loggerOptions } from '@pa/server-kit/logger';
import { metricsPlugin } from '@pa/server-kit/metrics';
import { openApi } from '@pa/server-kit/openapi';
import { securityHeadersPlugin } from '@pa/server-kit/security-headers';
import type { PortalConfig } from './config';
import { openDatabase, type OpenDatabase } from './db/client';
import { uniqueConflict } from './db/unique-conflicts';
import type { LimiterStore } from './modules/accounts/limits';
import { portalChannelRoutes } from './modules/admin/channel';
import { AuthCache } from './modules/auth/auth-cache';
import { loadSigningKeys } from './modules/auth/keys';
import { seed, type SeedResult } from './modules/companies/seed';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { authPlugin } from './plugins/external/auth';
import { openSharedState } from './plugins/external/redis';
import { registerWebApp } from './plugins/external/web-app';
import { registerAccountRoutes } from './routes/api/accounts/index';
import { registerAdminRoutes } from './routes/api/admin-routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: PortalConfig;
    /** What seeding did at this start (server.ts prints the sign-in details from it). */
    seedResult: SeedResult;
    mailer: Mailer;
    /** Where rate-limit counters live: memory, or Redis shared by every process (`REDIS_URL`). */
    limiterStore: LimiterStore;
    /** Runs work after the answer went out (e.g. mail); failures are logged, close() waits for it. */
    runInBackground(work: Promise<unknown>, what: string): void;
  }
}

export interface BuildOptions {
  /** An already opened database (tests); otherwise opened from the config and closed with the app. */
  database?: OpenDatabase;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream | undefined;
}

/** Builds the portal service from its plugins; `server.ts` only starts it, tests call it directly. */
export async function buildPortalApp(config: PortalConfig, options: BuildOptions = {}) {
  const app = Fastify({
    ...loggerOptions(config.LOG_LEVEL, options.logStream),
    bodyLimit: 1024 * 1024,
    // The client address (rate limits, audit, sign-in list) comes from the socket, never from headers
    // a client can forge; set up a proxy's X-Forwarded-For explicitly when there is one.
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // Every answer names its request id (also in every log line), so a report can be traced.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });

  // the signing keys are read while the database opens (the longest step of a start)
  const keysLoading = loadSigningKeys(config.DATA_DIR);
  keysLoading.catch(() => {}); // awaited below; a failed open must not leave it unhandled
  const database = options.database ?? (await openDatabase(config));
  app.addHook('onClose', async () => {
    if (!options.database) await database.close();
  });
  // On its own PGlite folder the portal answers the admin command (backups, create-company) locally.
  if (!options.database && database.dump) {
    let closeChannel: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      closeChannel = await openAdminChannel(
        config.DATA_DIR,
        'portal',
        portalChannelRoutes(database),
        app.log,
      );
    });
    app.addHook('preClose', async () => {
      await closeChannel?.();
    });
  }
  const shared = openSharedState(config.REDIS_URL, app.log);
  app.decorate('limiterStore', shared.limiterStore);
  app.addHook('onClose', shared.close);
  const keys = await keysLoading;
  app.decorate('mailer', createMailer(database.db, config, app.log));
  const background = new Set<Promise<unknown>>();
  app.decorate('runInBackground', (work: Promise<unknown>, what: string) => {
    const tracked = work
      .catch((error: unknown) => app.log.error({ err: error }, `${what} failed`))
      .finally(() => background.delete(tracked));
    background.add(tracked);
  });
  app.addHook('preClose', async () => {
    await Promise.all(background);
  });
  app.decorate('seedResult', await seed(database.db, config.DEMO_ADMIN_PASSWORD));

  // Order matters: security headers and the error handler wrap everything registered after them.
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...config.POWER7_ORIGINS],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // Only the configured browser origins may call the API from another origin (none by default:
  // the web app is served from this same origin).
  await app.register(cors, { origin: allowOrigins(config.CORS_ORIGINS), credentials: true });
  await app.register(cookie);
  const webFallback = await registerWebApp(app, config.WEB_DIST_DIR);
  await app.register(errorHandler, { fallback: webFallback, mapError: uniqueConflict });
  await app.register(metricsPlugin, { enabled: config.METRICS, service: 'portal-api' });
  countSignIns(app);
  await app.register(controlCharacterGuard);
  await app.register(openApi, {
    title: 'Power Analyzer portal API',
    description: 'Accounts, users, roles and permissions of a company.',
    version: '0.1.0',
  });
  await app.register(healthRoutes, {
    service: 'portal-api',
    checks: () => [
      { name: 'database', check: database.check },
      ...(shared.check ? [{ name: 'redis', check: shared.check }] : []),
    ],
  });
  // The auth plugin decorates app.db / app.authenticate / app.requirePermission: register it before
  // any route that uses them.
  await app.register(authPlugin, {
    db: database.db,
    keys,
    cache: new AuthCache(
      database.changes,
      database.driver === 'postgres' ? config.AUTH_CACHE_TTL_MS : null,
    ),
  });
  await app.register(registerAccountRoutes);
  await app.register(registerAdminRoutes);
  return app;
}

/** Sign-ins by outcome (`portal_sign_ins_total`): success, failure (any refusal but 429), rate_limited. */
function countSignIns(app: FastifyInstance) {
  const signIns = new Counter({
    name: 'portal_sign_ins_total',
    help: 'Sign-in attempts by outcome: success, failure, rate_limited.',
    labelNames: ['outcome'],
    registers: [app.metrics],
  });
  for (const outcome of ['success', 'failure', 'rate_limited']) signIns.inc({ outcome }, 0);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.url === '/api/accounts/sign-in' && request.method === 'POST') {
      const status = reply.statusCode;
      signIns.inc({
        outcome: status < 300 ? 'success' : status === 429 ? 'rate_limited' : 'failure',
      });
    }
    done();
  });
}

export type PortalApp = Awaited<ReturnType<typeof buildPortalApp>>;
