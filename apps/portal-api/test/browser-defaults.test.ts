import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper';

const connectSrc = (csp: unknown) => /connect-src ([^;]*)/.exec(String(csp))?.[1]?.split(' ') ?? [];

describe('browser-facing defaults of the portal', () => {
  let t: TestApp;
  let pinned: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        PORTAL_PORT: '38000',
        PUBLIC_URL: 'https://analyzer.example.com',
        CORS_ORIGINS: 'http://web.test',
      },
    });
    pinned = await buildTestApp({ env: { POWER7_PUBLIC_URL: 'https://power7.example.com:9443' } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await pinned?.close();
  });

  it('lets pages connect to itself and the Power 7 API only, not to any local port', async () => {
    const sources = connectSrc(
      (await t.app.inject({ url: '/api/live/' })).headers['content-security-policy'],
    );
    // The web app finds Power 7 on its own host, one port above the portal (apps/web/src/config/env.ts).
    expect(sources.sort()).toEqual(
      [
        "'self'",
        'http://127.0.0.1:38001',
        'http://localhost:38001',
        'https://analyzer.example.com:8001',
      ].sort(),
    );
    const pinnedSources = connectSrc(
      (await pinned.app.inject({ url: '/api/live/' })).headers['content-security-policy'],
    );
    expect(pinnedSources).toEqual(["'self'", 'https://power7.example.com:9443']);
  });

  it('sends no CORS header at all to a refused origin, credentials included', async () => {
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
    const refused = await preflight('http://evil.test');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
    const simple = await t.app.inject({
      url: '/api/live/',
      headers: { origin: 'http://evil.test' },
    });
    expect(simple.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
