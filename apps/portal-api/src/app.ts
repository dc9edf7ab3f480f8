import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { errorHandler } from '@pa/server-kit/error-handler';
import { healthRoutes } from '@pa/server-kit/health';
import { loggerOptions } from '@pa/server-kit/logger';
import { openApi } from '@pa/server-kit/openapi';
import type { PortalConfig } from './config';
import { registerWebApp } from './plugins/external/web-app';
import { registerAdminRoutes } from './routes/api/admin-routes';

/** Builds the portal service from its plugins; `server.ts` only starts it, tests call it directly. */
export async function buildPortalApp(config: PortalConfig) {
  const app = Fastify({
    ...loggerOptions(config.LOG_LEVEL),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Order matters: security headers and the error handler wrap everything registered after them.
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  const webFallback = await registerWebApp(app, config.WEB_DIST_DIR);
  await app.register(errorHandler, { fallback: webFallback });
  await app.register(openApi, {
    title: 'Power Analyzer portal API',
    description: 'Accounts, users, roles and permissions of a company.',
    version: '0.1.0',
  });
  await app.register(healthRoutes, { service: 'portal-api', checks: () => [] });
  await app.register(registerAdminRoutes);
  return app;
}
