import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, cleanup, customerCsv, DEFAULT_FIELDS, multipart, tempDir } from './helper';
import { startPortal, type PortalProcess } from './portal-process';

// The real portal issues the tokens: this service must accept them through its JWKS endpoint and
// through the key file the portal writes.
const password = 'portal-token-test-passphrase';
let dir: string;
let portal: PortalProcess | undefined;
let accessToken: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  dir = await tempDir('p7-portal-');
  portal = await startPortal({ DATA_DIR: join(dir, 'data'), DEMO_ADMIN_PASSWORD: password });
  ({ accessToken } = await portal.signIn('admin', password));
}, 90_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await portal?.stop();
  if (dir) await cleanup(dir);
});

it.each([
  ['JWKS_URL', () => ({ JWKS_URL: portal!.jwksUrl })],
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
