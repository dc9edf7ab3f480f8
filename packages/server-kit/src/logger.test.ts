import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { healthRoutes } from './health';
import { loggerOptions } from './logger';

async function appLoggingAt(level: string) {
  const lines: { level: number; msg: string; req?: { url: string } }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify(loggerOptions(level, stream));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(healthRoutes, { service: 'test', checks: () => [] });
  app.get('/api/things/', async () => ({ ok: true }));
  return { app, lines };
}

describe('request log lines', () => {
  it('are at debug for health and readiness probes, at info for anything else', async () => {
    const { app, lines } = await appLoggingAt('info');
    expect((await app.inject({ url: '/api/live/' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/ready/?probe=1' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/things/' })).statusCode).toBe(200);
    await app.close();
    const requestLines = lines.filter((line) => line.msg.startsWith('request completed'));
    expect(requestLines).toHaveLength(1);
    expect(lines.filter((line) => line.req?.url.startsWith('/api/live'))).toEqual([]);
    expect(lines.find((line) => line.msg === 'incoming request')?.req?.url).toBe('/api/things/');
  });

  it('show the probes at debug when LOG_LEVEL is debug', async () => {
    const { app, lines } = await appLoggingAt('debug');
    await app.inject({ url: '/api/live/' });
    await app.close();
    const probe = lines.filter((line) => line.msg === 'incoming request');
    expect(probe.map((line) => [line.level, line.req?.url])).toEqual([[20, '/api/live/']]);
    expect(lines.find((line) => line.msg === 'request completed')?.level).toBe(20);
  });
});
