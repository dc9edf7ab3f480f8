import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, cleanup, customerCsv, DEFAULT_FIELDS, multipart, tempDir } from './helper';

// The real portal issues the tokens: this service must accept them through its JWKS endpoint and
// through the key file the portal writes.
const repoRoot = resolve(import.meta.dirname, '../../..');
const password = 'portal-token-test-passphrase';
const port = 20_000 + Math.floor(Math.random() * 20_000);
let dir: string;
let portal: ChildProcess | null = null;
let accessToken: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  dir = await tempDir('p7-portal-');
  portal = spawn(process.execPath, ['--import', 'tsx', 'apps/portal-api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORTAL_PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      DEMO_ADMIN_PASSWORD: password,
      LOG_LEVEL: 'silent',
      SKIP_WEB_BUILD: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 1200 || portal.exitCode !== null) throw new Error('the portal did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = await fetch(`http://127.0.0.1:${port}/api/accounts/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'admin', password }),
  });
  expect(res.status).toBe(200);
  accessToken = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}, 90_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  if (portal && portal.exitCode === null) {
    portal.kill('SIGTERM');
    await new Promise((r) => portal!.once('exit', r));
  }
  if (dir) await cleanup(dir);
});

it.each([
  ['JWKS_URL', () => ({ JWKS_URL: `http://127.0.0.1:${port}/api/.well-known/jwks.json` })],
  ['JWKS_FILE', () => ({ JWKS_FILE: join(dir, 'data', 'keys', 'jwks.json') })],
])(
  'accepts the portal administrator’s access token via %s',
  async (name, keys) => {
    const app = await buildTestApp({ DATA_DIR: join(dir, `p7-${name}`), ...keys() });
    apps.push(app);
    const headers = { authorization: `Bearer ${accessToken}` };
    const body = multipart(
      { ...DEFAULT_FIELDS, pool_size: '10' },
      {
        name: 'c.csv',
        content: customerCsv(200, 10, 1),
      },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    expect(res.statusCode, res.body).toBe(202);
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    const refused = await app.inject({
      url: '/api/power7/processing-status/',
      headers: { authorization: `Bearer ${tampered}` },
    });
    expect(refused.statusCode).toBe(401);
  },
  90_000,
); // a new PGlite folder and the first upload: over 30 s on a machine under load 20
