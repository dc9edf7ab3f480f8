import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '@pa/server-kit/error-handler';
import { registerWebApp } from './web-app';

const INDEX = '<!doctype html><div id="root"></div>';
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-web-dist-'));
const app = Fastify({ logger: false });

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
  // What the web build writes beside each text asset.
  fs.writeFileSync(path.join(dist, 'assets', 'app.js.gz'), zlib.gzipSync('console.log(1)'));
  fs.writeFileSync(
    path.join(dist, 'assets', 'app.js.br'),
    zlib.brotliCompressSync('console.log(1)'),
  );
  fs.writeFileSync(path.join(dist, 'index.html.gz'), zlib.gzipSync(INDEX));
  const fallback = await registerWebApp(app, dist);
  await app.register(errorHandler, { fallback });
  app.get('/api/thing', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves the app shell for client-side routes, whatever the Accept header', async () => {
    for (const url of ['/', '/auth/signin', '/app/company/users?page=2']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves built assets and answers missing assets and API paths with an envelope 404', async () => {
    expect((await app.inject({ url: '/assets/app.js' })).body).toBe('console.log(1)');
    const missingAsset = await app.inject({ url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
    const missingApi = await app.inject({ url: '/api/nothing', headers: { accept: 'text/html' } });
    expect(missingApi.statusCode).toBe(404);
    expect(missingApi.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('sends precompressed assets the browser accepts, hashed assets cached for a year', async () => {
    const br = await app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');

    const plain = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': '' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('never lets a browser keep index.html without asking', async () => {
    for (const url of ['/', '/app/account/view']) {
      const page = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-encoding'], url).toBe('gzip');
      expect(zlib.gunzipSync(page.rawPayload).toString()).toBe(INDEX);
    }
  });
});

describe('pages asked at a loopback IP address (ADR 023)', () => {
  const atLocalhost = Fastify({ logger: false });
  beforeAll(async () => {
    const fallback = await registerWebApp(atLocalhost, dist, { pagesAtLocalhost: true });
    await atLocalhost.register(errorHandler, { fallback });
    atLocalhost.get('/api/thing', async () => ({ ok: true }));
    await atLocalhost.ready();
  });
  afterAll(() => atLocalhost.close());

  it('move to localhost on the same port and path, where passkeys work', async () => {
    for (const [host, to] of [
      ['127.0.0.1:8000', 'http://localhost:8000/auth/signin?next=%2Fapp'],
      ['127.0.0.1', 'http://localhost/auth/signin?next=%2Fapp'],
      ['[::1]:8000', 'http://localhost:8000/auth/signin?next=%2Fapp'],
    ] as const) {
      const page = await atLocalhost.inject({ url: '/auth/signin?next=%2Fapp', headers: { host } });
      expect(page.statusCode, host).toBe(302);
      expect(page.headers.location).toBe(to);
      expect(page.headers['cache-control']).toBe('no-store');
    }
  });

  it('keeps the API, the assets and any other host where they are', async () => {
    const api = await atLocalhost.inject({
      url: '/api/thing',
      headers: { host: '127.0.0.1:8000' },
    });
    expect(api.statusCode).toBe(200);
    const asset = await atLocalhost.inject({
      url: '/assets/app.js',
      headers: { host: '127.0.0.1:8000' },
    });
    expect(asset.statusCode).toBe(200);
    for (const host of ['localhost:8000', '10.1.2.3:8000', 'analyzer.example.com']) {
      const page = await atLocalhost.inject({ url: '/auth/signin', headers: { host } });
      expect(page.statusCode, host).toBe(200);
    }
    // without the option (a PUBLIC_URL with a host name), a loopback IP gets the page itself
    const plain = await app.inject({ url: '/auth/signin', headers: { host: '127.0.0.1:8000' } });
    expect(plain.statusCode).toBe(200);
  });
});
