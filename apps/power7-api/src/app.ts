import Fastify from 'fastify';
import cors from '@fastify/cors';
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
import type { Power7Config } from './config';

/** Builds the Power 7 service from its plugins; `server.ts` only starts it, tests call it directly. */
export async function buildPower7App(config: Power7Config) {
  const app = Fastify(loggerOptions(config.LOG_LEVEL)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(helmet);
  // Only the web app's origin may call this API from a browser.
  await app.register(cors, { origin: config.CORS_ORIGINS, credentials: true });
  await app.register(errorHandler);
  await app.register(openApi, {
    title: 'Power Analyzer Power 7 API',
    description:
      'Upload customer files, analyse every draw, filter, list winners and download them.',
    version: '0.1.0',
  });
  await app.register(healthRoutes, { service: 'power7-api', checks: () => [] });
  return app;
}
