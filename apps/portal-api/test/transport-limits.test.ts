import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEnvelopeWithSecurityHeaders,
  hostileRequests,
  rawGet,
} from '@pa/server-kit/testing/hostile-requests';
import { buildTestApp, type TestApp } from './helper';

// Answers Node and the router give before any route runs are still the envelope with security headers.
describe('portal: requests refused before routing', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t?.close());

  it.each(hostileRequests('/api/users/:id'))('$name', async ({ path }) => {
    expectEnvelopeWithSecurityHeaders(await rawGet(port, path), path);
  });

  it('still answers a normal request on a fresh connection afterwards', async () => {
    expect((await rawGet(port, '/api/live/')).status).toBe(200);
  });
});
