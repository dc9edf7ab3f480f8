// System endpoints: live, ready, health, status, OpenAPI and CORS.
import { rename } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { app, csvText, keys, tokenA, uploadAndWait, usePower7App } from './power7-fixture';

usePower7App();

// The status counts the jobs of this app: three more analyses done, five failed (no valid row).
beforeAll(async () => {
  for (let i = 0; i < 3; i++) expect((await uploadAndWait(tokenA, csvText)).status).toBe('done');
  for (let i = 0; i < 5; i++) {
    const failed = await uploadAndWait(tokenA, 'n1,n2,n3,n4,n5,n6,n7\n1,1,2,3,4,5,6\n');
    expect(failed.status).toBe('failed');
  }
});

describe('system endpoints', () => {
  it('answers live, ready, health, status and the OpenAPI reference', async () => {
    expect((await app.inject({ url: '/api/live/' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data.checks.map((c: { name: string }) => c.name)).toEqual([
      'storage',
      'database',
      'workers',
      'keys',
      'ended-sign-ins',
    ]);
    const health = await app.inject({ url: '/api/health/' });
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toMatchObject({ healthy: true, database: 'pglite' });
    const status = await app.inject({ url: '/api/status/' });
    expect(status.json().data).toMatchObject({
      service: 'power7-api',
      version: '0.1.0',
      jobs: { queued: 0, running: 0, concurrency: 2 },
      // the fixture's UPLOAD_MAX_BYTES, for the web app's check before an upload
      uploadMaxBytes: 12 * 1024 * 1024,
    });
    expect(status.json().data.jobs.done).toBeGreaterThan(3);
    expect(status.json().data.jobs.failed).toBeGreaterThanOrEqual(5);
    const docs = await app.inject({ url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(['/api/upload/', '/api/filter/', '/api/winners/{combo}/{matchType}/']),
    );
  });

  it('answers the health and status checks whatever the Authorization header holds', async () => {
    for (const authorization of ['Bearer not-a-token', 'Basic abc', `Bearer ${tokenA}x`]) {
      for (const url of ['/api/live/', '/api/ready/', '/api/health/', '/api/status/']) {
        const res = await app.inject({ url, headers: { authorization } });
        expect(res.statusCode, `${url} ${res.body}`).toBe(200);
      }
    }
    // the Power 7 routes still refuse the bad token
    const refused = await app.inject({
      url: '/api/power7/sessions/',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(refused.statusCode).toBe(401);
  });

  it('sets the security headers on every answer, errors included', async () => {
    const answers = [
      await app.inject({ url: '/api/status/' }),
      await app.inject({ url: '/api/nope/' }),
      await app.inject({ method: 'POST', url: '/api/filter/', payload: {} }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 401]);
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('allows CORS only for the configured origins', async () => {
    const allowed = await app.inject({
      method: 'OPTIONS',
      url: '/api/filter/',
      headers: {
        origin: 'http://127.0.0.1:8000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-csrftoken',
      },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:8000');
    expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/X-CSRFToken/i);
    const denied = await app.inject({
      method: 'OPTIONS',
      url: '/api/filter/',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reports key material that cannot be loaded as not ready', async () => {
    await rename(keys.file, `${keys.file}.away`);
    try {
      const ready = await app.inject({ url: '/api/ready/' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toMatch(/keys/);
    } finally {
      await rename(`${keys.file}.away`, keys.file);
    }
    expect((await app.inject({ url: '/api/ready/' })).statusCode).toBe(200);
  });
});
