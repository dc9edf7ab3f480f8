import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper';

// Transport concerns do not depend on the database: PGlite is enough here.
describe('HTTP hardening and the OpenAPI reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { CORS_ORIGINS: 'http://web.test' } });
  });
  afterAll(() => t?.close());

  it('sends security headers with a strict Content-Security-Policy and a request id', async () => {
    const response = await t.app.inject({ url: '/api/live/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const traced = await t.app.inject({
      url: '/api/live/',
      headers: { 'x-request-id': 'trace-me-42' },
    });
    expect(traced.headers['x-request-id']).toBe('trace-me-42');
    // A client id in any other shape is replaced, never echoed into headers and log lines.
    for (const unsafe of ['a'.repeat(65), 'two words', 'x"}{"level":60', 'ü', '']) {
      const replaced = await t.app.inject({
        url: '/api/live/',
        headers: { 'x-request-id': unsafe },
      });
      expect(replaced.headers['x-request-id'], unsafe).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('allows only the configured browser origins', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/accounts/sign-in',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight('http://web.test');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://web.test');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const denied = await preflight('http://evil.test');
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses bodies over 1 MiB with 413 in the envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/forgot-password',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', padding: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('documents every accounts route with its request and response schemas at /api/docs', async () => {
    const ui = await t.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    const spec = (await t.app.inject({ url: '/api/docs/json' })).json();
    for (const [route, method] of [
      ['/api/accounts/sign-in', 'post'],
      ['/api/accounts/rotate-token', 'post'],
      ['/api/accounts/verify', 'get'],
      ['/api/accounts/signout', 'post'],
      ['/api/accounts/forgot-password', 'post'],
      ['/api/accounts/reset-password', 'post'],
      ['/api/accounts/change-password', 'post'],
      ['/api/accounts/me', 'patch'],
      ['/api/accounts/undo-email-change', 'post'],
      ['/api/accounts/sessions', 'get'],
      ['/api/accounts/sessions/{id}', 'delete'],
      ['/api/accounts/sessions/revoke-others', 'post'],
      ['/api/users/{id}/revoke-sessions', 'post'],
    ] as const) {
      const operation = spec.paths[route]?.[method];
      expect(operation, `${method} ${route}`).toBeDefined();
      expect(operation.responses['200'].content['application/json'].schema, route).toBeDefined();
    }
    const signIn = spec.paths['/api/accounts/sign-in'].post;
    expect(Object.keys(signIn.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['userName', 'email', 'password']),
    );
  });

  it('never writes a password or token into the log', async () => {
    const lines: string[] = [];
    const { default: Fastify } = await import('fastify');
    const { loggerOptions } = await import('@pa/server-kit/logger');
    const { Writable } = await import('node:stream');
    const options = loggerOptions('trace');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = { ...(options.logger as object), stream };
    const probe = Fastify({ ...options, logger });
    probe.post('/api/accounts/sign-in', async (request) => {
      request.log.info({ body: request.body }, 'body');
      return { ok: true };
    });
    await probe.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      headers: {
        authorization: 'Bearer secret-access-token',
        cookie: 'refreshToken=secret-refresh',
      },
      payload: { userName: 'admin', password: 'secret-password-value' },
    });
    await probe.close();
    const log = lines.join('');
    expect(log).toContain('[redacted]');
    for (const secret of ['secret-access-token', 'secret-refresh', 'secret-password-value']) {
      expect(log).not.toContain(secret);
    }
  });
});
