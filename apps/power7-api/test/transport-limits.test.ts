import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEnvelopeWithSecurityHeaders,
  hostileRequests,
  rawGet,
} from '@pa/server-kit/testing/hostile-requests';
import { buildTestApp, cleanup, makeKeys, tempDir } from './helper';

// Answers Node and the router give before any route runs are still the envelope with security headers.
describe('Power 7: requests refused before routing', () => {
  let app: FastifyInstance;
  let dir: string;
  let port: number;
  beforeAll(async () => {
    dir = await tempDir();
    const keys = await makeKeys(dir);
    app = await buildTestApp({ DATA_DIR: dir, JWKS_FILE: keys.file });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await cleanup(dir);
  });

  it.each(hostileRequests('/api/power7/sessions/:id/rejected.csv'))('$name', async ({ path }) => {
    expectEnvelopeWithSecurityHeaders(await rawGet(port, path), path);
  });

  it('still answers a normal request on a fresh connection afterwards', async () => {
    expect((await rawGet(port, '/api/live/')).status).toBe(200);
  });
});
