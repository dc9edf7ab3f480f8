import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@pa/contracts/envelope';

export interface OpenApiOptions {
  title: string;
  description: string;
  version: string;
}

/** The component every error answer of the document refers to. */
export const ERROR_ENVELOPE = 'ErrorEnvelope';

// Registered by id, the envelope becomes one component that the transform below refers to (a guard:
// a second registration of the same id would throw).
if (!z.globalRegistry.has(errorEnvelopeSchema)) {
  z.globalRegistry.add(errorEnvelopeSchema, {
    id: ERROR_ENVELOPE,
    description:
      'Every failure: `success` false, `code` a stable word (ErrorCode), `status` the HTTP status, `data` null, `errors` one item per problem (`field` names the input at fault).',
  });
}

/** An error answer in the envelope, described for one status of one route. */
function errorAnswer(description: string) {
  return { description, content: { 'application/json': { schema: errorEnvelopeSchema } } };
}

/**
 * Error answers a route documents itself, by status: `{ 404: 'No such session of yours' }`. Each is
 * the shared envelope; statuses a route leaves out get the generic ones below.
 */
export function errorAnswers<Status extends number>(descriptions: Record<Status, string>) {
  const answers: Partial<Record<Status, typeof errorEnvelopeSchema>> = {};
  for (const [status, text] of Object.entries<string>(descriptions)) {
    answers[Number(status) as Status] = errorEnvelopeSchema.describe(text);
  }
  return answers as Record<Status, typeof errorEnvelopeSchema>;
}

/** A CSV download (`text/csv`, streamed) as a route's success answer. */
export function csvAnswer(description: string) {
  const text = z.string().describe('CSV with a header row (RFC 4180, UTF-8)');
  // text on the wire; the handler sends it as a stream, which Fastify passes through unserialised
  return {
    description,
    content: { 'text/csv': { schema: text as unknown as z.ZodType<Readable> } },
  };
}

/**
 * For a route whose body is documented but read by the handler itself (a multipart stream): the
 * route's validator passes the request part through unchanged.
 */
export const documentationOnly = () => (value: unknown) => ({ value });

interface RouteSchema extends FastifySchema {
  security?: Record<string, string[]>[];
  consumes?: string[];
  hide?: boolean;
  response?: Record<string, unknown>;
}

/**
 * The error answers any route of these services can give, keyed by status, from what the route
 * declares: input (validation), a body (size, media type), a sign-in (`security`), a path parameter
 * (a row that may not exist). Every route can fail on our side or meet an unreachable database.
 */
function genericErrors(schema: RouteSchema): Record<string, string> {
  const takesBody = Boolean(schema.body ?? schema.consumes);
  const takesInput = takesBody || Boolean(schema.params ?? schema.querystring);
  const signedIn = (schema.security?.length ?? 0) > 0;
  const declared = Object.keys(schema.response ?? {});
  // 401 and 403 come as a pair: a route that describes either knows whether it checks permissions.
  const describesAuth = declared.includes('401') || declared.includes('403');
  return {
    ...(takesInput && {
      400: 'Validation error: `errors[].field` names each input at fault',
    }),
    ...(signedIn &&
      !describesAuth && {
        401: 'No or an invalid access token, or the sign-in has ended',
        403: 'The caller lacks the permission this needs',
      }),
    ...(Boolean(schema.params) && { 404: 'Nothing with that id that the caller may see' }),
    ...(takesBody && {
      413: 'The body is larger than the service accepts',
      415: 'The body is not of a media type this route reads',
    }),
    500: 'Something went wrong on our side (details are in the log only)',
    503: 'The database or another dependency cannot be reached just now; try again',
  };
}

/** Whether a zod schema is the error envelope or a described copy of it. */
function isErrorEnvelope(schema: unknown): schema is z.ZodType {
  for (
    let s = schema instanceof z.ZodType ? (schema as z.ZodType) : undefined;
    s;
    s = s._zod.parent as z.ZodType | undefined
  ) {
    if (s === errorEnvelopeSchema) return true;
  }
  return false;
}

/**
 * Completes a route's schema for the document only (Fastify validates and serialises with the
 * route's own): every error the route can give is answered in the envelope, referring to the one
 * `ErrorEnvelope` component; a public route says so (`security: []`); each operation has an id.
 */
function documentRoute(schema: RouteSchema, method: string, url: string): RouteSchema {
  const response: Record<string, unknown> = {};
  for (const [status, text] of Object.entries(genericErrors(schema))) {
    response[status] = errorAnswer(text);
  }
  for (const [status, answer] of Object.entries(schema.response ?? {})) {
    response[status] = isErrorEnvelope(answer)
      ? errorAnswer(z.globalRegistry.get(answer)?.description ?? 'Error')
      : answer;
  }
  return {
    operationId: operationId(method, url),
    ...schema,
    security: schema.security ?? [],
    response,
  };
}

/** `GET /api/users/:id` → `getApiUsersId`: unique per route, readable in generated clients. */
function operationId(method: string, url: string) {
  const words = url.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/**
 * The OpenAPI document is generated from the same zod schemas that validate and serialise each
 * route, so it cannot drift; the browsable reference lives at `/api/docs` (the document itself at
 * `/api/docs/json`). Error answers are added here, in one place, for every route (see
 * `genericErrors`); a route documents only the ones peculiar to it.
 */
export const openApi = fp<OpenApiOptions>(
  async function openApi(app: FastifyInstance, options: OpenApiOptions) {
    await app.register(swagger, {
      openapi: {
        info: { title: options.title, description: options.description, version: options.version },
        // The document is served by the service it describes: its paths are relative to it.
        servers: [{ url: '/', description: 'This service' }],
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: (document) => {
        const { schema, url, route } = document;
        if (!schema || (schema as RouteSchema).hide) return jsonSchemaTransform(document);
        const method = [route.method].flat().join('');
        return jsonSchemaTransform({
          ...document,
          schema: documentRoute(schema as RouteSchema, method, url),
        });
      },
      transformObject: (document) => {
        const object = jsonSchemaTransformObject(document);
        // Only the envelope as answered is referred to; its request-side twin is never used.
        const { components } = object as { components?: { schemas?: Record<string, unknown> } };
        delete components?.schemas?.[`${ERROR_ENVELOPE}Input`];
        return object;
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'openapi' },
);
