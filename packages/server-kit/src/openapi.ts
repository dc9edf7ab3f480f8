import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export interface OpenApiOptions {
  title: string;
  description: string;
  version: string;
}

/**
 * The OpenAPI document is generated from the same zod schemas that validate and serialise each
 * route, so it cannot drift; the browsable reference lives at `/api/docs`.
 */
export const openApi = fp<OpenApiOptions>(
  async function openApi(app: FastifyInstance, options: OpenApiOptions) {
    await app.register(swagger, {
      openapi: {
        info: { title: options.title, description: options.description, version: options.version },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'openapi' },
);
