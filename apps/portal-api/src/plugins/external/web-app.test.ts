import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '@pa/server-kit/error-handler';
import { registerWebApp } from './web-app';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-web-dist-'));
const app = Fastify({ logger: false });

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
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
});
