import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
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
import { AuthCache } from './modules/auth/auth-cache';
import { loadSecretsKey, loadSigningKeys } from './modules/auth/keys';
import { relyingPartyOf } from './modules/mfa/relying-party';
import { authPlugin } from './plugins/app/auth';
import { backgroundWorkPlugin } from './plugins/app/background-work';
import { dbPlugin } from './plugins/app/db';
import { mailerPlugin } from './plugins/app/mailer';
import { signInMetrics } from './plugins/app/metrics';
import { secretsPlugin } from './plugins/app/secrets';
import { seedPlugin } from './plugins/app/seed';
import { redisPlugin } from './plugins/external/redis';
import { registerWebApp } from './plugins/external/web-app';
import { registerAccountRoutes } from './routes/api/accounts/index';
import { registerAdminRoutes } from './routes/api/admin-routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: PortalConfig;
  }
}

export interface BuildOptions {
  /** An already opened database (tests); otherwise opened from the config and closed with the app. */
  database?: OpenDatabase;
  /**
   * A database already being opened from the config (`server.ts` starts it before loading this
   * module, so the two overlap); owned and closed with the app like one opened here.
   */
  openingDatabase?: Promise<OpenDatabase>;
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
    // Seeding (a plugin) hashes the demo passwords on a first start; on a busy 2-core machine that
    // can pass Fastify's 10 s default for one plugin.
    pluginTimeout: 60_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // Every answer names its request id (also in every log line), so a report can be traced.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });

  // The signing keys are read while the database opens (the longest step of a start). The database
  // opens outside any plugin: a new PGlite folder on a busy machine can take longer than Fastify's
  // 10 s plugin start limit (as in Power 7's app.ts).
  const keysLoading = loadSigningKeys(config.DATA_DIR);
  keysLoading.catch(() => {}); // awaited below; a failed open must not leave it unhandled
  const secretsKey = loadSecretsKey(config.DATA_DIR);
  const database = options.database ?? (await (options.openingDatabase ?? openDatabase(config)));
  // State and services first (`app.db`, `app.limiterStore`, `app.runInBackground`, `app.mailer`),
  // then the demo data, before any route.
  await app.register(dbPlugin, { config, database, owned: !options.database });
  await app.register(redisPlugin, { url: config.REDIS_URL });
  const keys = await keysLoading;
  await app.register(secretsPlugin, { key: secretsKey });
  await app.register(backgroundWorkPlugin);
  await app.register(mailerPlugin);
  await app.register(seedPlugin);

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
  const webFallback = await registerWebApp(app, config.WEB_DIST_DIR, {
    pagesAtLocalhost: relyingPartyOf(config.PUBLIC_URL).id === 'localhost',
  });
  await app.register(errorHandler, { fallback: webFallback, mapError: uniqueConflict });
  await app.register(metricsPlugin, { enabled: config.METRICS, service: 'portal-api' });
  await app.register(signInMetrics);
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
      ...(app.redisCheck ? [{ name: 'redis', check: app.redisCheck }] : []),
    ],
  });
  // The auth plugin decorates app.authenticate / app.requirePermission: register it before
  // any route that uses them.
  await app.register(authPlugin, {
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

export type PortalApp = Awaited<ReturnType<typeof buildPortalApp>>;
