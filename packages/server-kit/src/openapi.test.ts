import { Readable } from 'node:stream';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelopeSchema, ok as envelope } from '@pa/contracts/envelope';
import { errorHandler } from './error-handler';
import { csvAnswer, errorAnswers, openApi } from './openapi';

const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
const ok = envelopeSchema(z.object({ name: z.string() }));
const bearer = [{ bearerAuth: [] }];

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandler);
  await app.register(openApi, { title: 'test', description: 'test', version: '1' });
  app.get('/public', { schema: { response: { 200: ok } } }, async () => envelope({ name: 'x' }));
  app.patch(
    '/things/:id',
    {
      schema: {
        security: bearer,
        params: z.object({ id: z.string() }),
        body: z.object({ name: z.string() }),
        response: { 200: ok, ...errorAnswers({ 409: 'Stale version' }) },
      },
    },
    async () => envelope({ name: 'thing' }),
  );
  app.get(
    '/things.csv',
    { schema: { security: bearer, response: { 200: csvAnswer('Every thing') } } },
    async () => Readable.from(['name\n']),
  );
  await app.ready();
});
afterAll(() => app.close());

const responses = async (path: string, method: string) => {
  const document = (await app.inject({ url: '/api/docs/json' })).json();
  return document.paths[path][method].responses as Record<
    string,
    { description: string; content: Record<string, { schema: { $ref?: string } }> }
  >;
};

describe('the OpenAPI document', () => {
  it('adds the error answers a route can give, derived from what it declares', async () => {
    expect(Object.keys(await responses('/public', 'get'))).toEqual(['200', '500', '503']);
    expect(Object.keys(await responses('/things/{id}', 'patch'))).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '500',
      '503',
    ]);
    expect(Object.keys(await responses('/things.csv', 'get'))).toEqual([
      '200',
      '401',
      '403',
      '500',
      '503',
    ]);
  });

  it('answers every error with the one ErrorEnvelope component, in the route’s words where it has them', async () => {
    const patch = await responses('/things/{id}', 'patch');
    for (const status of ['400', '401', '403', '404', '409', '413', '415', '500', '503']) {
      expect(patch[status]?.content['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
    expect(patch['409']?.description).toBe('Stale version');
    const document = (await app.inject({ url: '/api/docs/json' })).json();
    expect(Object.keys(document.components.schemas)).toEqual(['ErrorEnvelope']);
    expect(document.paths['/public'].get.security).toEqual([]);
  });

  it('describes a download as text/csv', async () => {
    const csv = await responses('/things.csv', 'get');
    expect(Object.keys(csv['200']?.content ?? {})).toEqual(['text/csv']);
    expect(csv['200']?.description).toBe('Every thing');
  });
});
