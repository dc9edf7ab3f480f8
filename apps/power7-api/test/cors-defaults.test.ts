import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { power7ConfigSchema } from '../src/config';
import { buildTestApp, cleanup, makeKeys, tempDir } from './helper';

// The web app is served by the portal: Power 7 must accept its origin on whatever port it runs.
describe('Power 7 default CORS origins', () => {
  const origins = (env: Record<string, string>) => power7ConfigSchema.parse(env).CORS_ORIGINS;

  it('follow PORTAL_PORT and PUBLIC_URL', () => {
    expect(origins({})).toEqual(['http://127.0.0.1:8000', 'http://localhost:8000']);
    expect(origins({ PORTAL_PORT: '38000' })).toEqual([
      'http://127.0.0.1:38000',
      'http://localhost:38000',
    ]);
    expect(
      origins({ PORTAL_PORT: '38000', PUBLIC_URL: 'https://analyzer.example.com/app/' }),
    ).toEqual(['https://analyzer.example.com', 'http://127.0.0.1:38000', 'http://localhost:38000']);
  });

  it('are replaced, not extended, by CORS_ORIGINS', () => {
    expect(
      origins({ PORTAL_PORT: '38000', CORS_ORIGINS: 'https://a.test, https://b.test' }),
    ).toEqual(['https://a.test', 'https://b.test']);
  });
});

describe('Power 7 CORS answers', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    dir = await tempDir();
    const keys = await makeKeys(dir);
    app = await buildTestApp({
      DATA_DIR: join(dir, 'data'),
      JWKS_FILE: keys.file,
      CORS_ORIGINS: 'http://web.test',
    });
  });

  afterAll(async () => {
    await app?.close();
    if (dir) await cleanup(dir);
  });

  it('allow credentials for the web app origin only; a refused origin gets no CORS header', async () => {
    const preflight = (origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url: '/api/filter/',
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
    const simple = await app.inject({ url: '/api/live/', headers: { origin: 'http://evil.test' } });
    expect(simple.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the web app edit and delete a session, and read the export headers (issue #25)', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/power7/sessions/x/',
      headers: {
        origin: 'http://web.test',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'content-type',
      },
    });
    const methods = String(preflight.headers['access-control-allow-methods']);
    expect(methods).toContain('PATCH');
    expect(methods).toContain('DELETE');
    const simple = await app.inject({ url: '/api/live/', headers: { origin: 'http://web.test' } });
    expect(String(simple.headers['access-control-expose-headers'])).toContain('X-Total-Rows');
  });
});
