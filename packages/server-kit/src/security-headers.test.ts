import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders, securityHeadersPlugin } from './security-headers';

describe('security headers', () => {
  it("are helmet's headers for the options, computed once", () => {
    const headers = securityHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"] } },
    });
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers).not.toHaveProperty('x-powered-by');
    expect(securityHeaders({ xFrameOptions: false })).not.toHaveProperty('x-frame-options');
  });

  it('are on every answer: routes, 404s and errors', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, { xFrameOptions: { action: 'deny' } });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    for (const url of ['/ok', '/missing', '/boom']) {
      const response = await app.inject({ url });
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    }
    await app.close();
  });
});
