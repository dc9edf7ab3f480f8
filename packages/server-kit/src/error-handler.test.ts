import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from './error-handler';
import { AppError, invalidField } from './errors';
import { healthRoutes } from './health';

const app = Fastify({ logger: false, bodyLimit: 64 }).withTypeProvider<ZodTypeProvider>();

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandler);
  await app.register(healthRoutes, {
    service: 'test',
    checks: () => [
      {
        name: 'storage',
        check: () => {
          throw new Error('disk gone');
        },
      },
    ],
  });
  app.post(
    '/things',
    { schema: { body: z.object({ name: z.string().min(2), age: z.number() }) } },
    async () => ({ ok: true }),
  );
  app.get('/database-gone', async () => {
    // what Drizzle throws when node-postgres cannot connect: the driver's error as its cause
    throw Object.assign(new Error('Failed query: select 1'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      }),
    });
  });
  app.get('/query-refused', async () => {
    throw Object.assign(new Error('Failed query: insert'), {
      cause: Object.assign(new Error('duplicate key value'), { code: '23505' }),
    });
  });
  app.get('/conflict', async () => {
    throw new AppError('CONFLICT', 'Already there.');
  });
  app.get('/field', async () => {
    throw invalidField('budget', 'budget must be positive');
  });
  app.get(
    '/list',
    { schema: { querystring: z.strictObject({ page: z.string().optional() }) } },
    async () => ({ ok: true }),
  );
  app.get('/bug', async () => {
    throw new Error('secret internal detail at /srv/app.ts:12');
  });
  await app.ready();
});
afterAll(() => app.close());

describe('envelope error handler', () => {
  it('names the fields of a schema validation error', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      status: 400,
      data: null,
    });
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['age', 'name']);
  });

  it('names each unknown key of a strict schema, bracket keys as dotted paths', async () => {
    const response = await app.inject({ url: '/list?pagesize=5&filters[status][$ne]=x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.json().errors).toEqual([
      { field: 'pagesize', message: 'unknown parameter "pagesize"', code: 'VALIDATION_ERROR' },
      {
        field: 'filters.status.$ne',
        message: 'unknown parameter "filters[status][$ne]"',
        code: 'VALIDATION_ERROR',
      },
    ]);
  });

  it('answers AppErrors with their code and status', async () => {
    const response = await app.inject({ url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message: 'Already there.',
    });
    const field = await app.inject({ url: '/field' });
    expect(field.json().errors).toEqual([
      { field: 'budget', message: 'budget must be positive', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('answers a database that cannot be reached with a 503 to try again, not a 500', async () => {
    const gone = await app.inject({ url: '/database-gone' });
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(gone.body).not.toContain('ECONNREFUSED');
    const refused = await app.inject({ url: '/query-refused' });
    expect(refused.statusCode).toBe(500);
  });

  it('hides internals of a 500', async () => {
    const response = await app.inject({ url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toMatchObject({ success: false, code: 'INTERNAL_ERROR', status: 500 });
  });

  it('answers unknown routes, bad JSON and oversized bodies in the envelope', async () => {
    const missing = await app.inject({ url: '/nope' });
    expect(missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND', status: 404 });
    const badJson = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ success: false, status: 400 });
    const big = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'x'.repeat(200), age: 1 },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('serves live always and ready only when every check passes', async () => {
    expect((await app.inject({ url: '/api/live/' })).json()).toMatchObject({
      success: true,
      data: { live: true },
    });
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(ready.json().data.checks[0]).toMatchObject({
      name: 'storage',
      ok: false,
      error: 'disk gone',
    });
  });
});

describe('a service mapping its own failures', () => {
  class DomainError extends Error {}

  it('answers them as the AppError mapError makes, and leaves other errors as they are', async () => {
    const mapped = Fastify({ logger: false });
    await mapped.register(errorHandler, {
      mapError: (error) =>
        error instanceof DomainError ? new AppError('CONFLICT', error.message) : error,
    });
    mapped.get('/domain', async () => {
      throw new DomainError('Not finished yet.');
    });
    mapped.get('/bug', async () => {
      throw new Error('secret internal detail');
    });
    const domain = await mapped.inject({ url: '/domain' });
    expect(domain.statusCode).toBe(409);
    expect(domain.json()).toMatchObject({ code: 'CONFLICT', message: 'Not finished yet.' });
    const bug = await mapped.inject({ url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.body).not.toContain('secret');
    await mapped.close();
  });
});

describe('a client that goes away mid-request', () => {
  it('is logged as a client disconnect at info, not as the database being unavailable', async () => {
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const server = Fastify({ logger: { level: 'info', stream } });
    await server.register(errorHandler);
    let reading: () => void = () => undefined;
    const bodyRead = new Promise<void>((resolve) => (reading = resolve));
    server.addHook('preParsing', async () => reading());
    server.post('/upload', async () => ({ ok: true }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    // Half a body of the length announced, then the connection closes.
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
    );
    await bodyRead;
    socket.destroy();
    const seen = async () => lines.some((line) => line.msg === 'client disconnected');
    for (let i = 0; i < 250 && !(await seen()); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await server.close();
    const disconnect = lines.find((line) => line.msg === 'client disconnected');
    expect(disconnect?.level).toBe(30);
    expect(lines.map((line) => line.msg)).not.toContain('database unavailable');
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });
});
