// Each user's sessions take at most STORAGE_QUOTA_MB of disk: an upload that would pass it is
// refused with 413 naming the quota and the use, and leaves nothing behind.
import { readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { folderBytes } from '../src/modules/sessions/quota';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from './helper';

let dir: string;
let app: FastifyInstance;
let keys: Awaited<ReturnType<typeof makeKeys>>;
const QUOTA_MB = 3;

beforeAll(async () => {
  dir = await tempDir('p7-quota-');
  keys = await makeKeys(dir);
  app = await buildTestApp({
    DATA_DIR: join(dir, 'data'),
    JWKS_FILE: keys.file,
    STORAGE_QUOTA_MB: String(QUOTA_MB),
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (dir) await cleanup(dir);
});

const folders = () => readdir(join(dir, 'data', 'power7'));

async function upload(token: string, content: string) {
  const body = multipart({ ...DEFAULT_FIELDS, pool_size: '20' }, { name: 'c.csv', content });
  return app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
}

async function waitDone(token: string, id: string) {
  for (let i = 0; i < 2400; i++) {
    const res = await app.inject({
      url: `/api/power7/processing-status/?session=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const status = res.json().data.status;
    if (status !== 'queued' && status !== 'running') return status as string;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('not finished');
}

it('refuses, with 413 naming the quota and the use, an upload past the quota and keeps nothing of it', async () => {
  const token = await keys.sign();
  const first = await upload(token, customerCsv(2000, 20, 1));
  expect(first.statusCode, first.body).toBe(202);
  const id = first.json().data._id as string;
  expect(await waitDone(token, id)).toBe('done');
  const used = await folderBytes(join(dir, 'data', 'power7', id));
  const room = QUOTA_MB * 1024 * 1024 - used;
  expect(room).toBeGreaterThan(0);

  // a file larger than the room left: refused while it streams, its folder removed
  const before = await folders();
  const big = customerCsv(Math.ceil(room / 40), 20, 2);
  expect(big.length).toBeGreaterThan(room);
  const refused = await upload(token, big);
  expect(refused.statusCode, refused.body).toBe(413);
  const body = refused.json();
  expect(body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', status: 413 });
  expect(body.errors[0]).toMatchObject({ field: 'customer_file' });
  expect(body.message).toContain(`${QUOTA_MB} MB`);
  expect(body.message).toContain(`${Math.round((used / 1024 / 1024) * 10) / 10} MB`);
  expect(await folders()).toEqual(before);
  const list = await app.inject({
    url: '/api/power7/sessions/',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(list.json().data.total).toBe(1);

  // another user has a quota of their own
  const other = await keys.sign({ sub: 'user-b' });
  const theirs = await upload(other, customerCsv(2000, 20, 3));
  expect(theirs.statusCode, theirs.body).toBe(202);
  expect(await waitDone(other, theirs.json().data._id)).toBe('done');

  // clearing the sessions makes room again
  const cleared = await app.inject({
    method: 'POST',
    url: '/api/sessions/clear-all/',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(cleared.statusCode).toBe(200);
  const again = await upload(token, big);
  expect(again.statusCode, again.body).toBe(202);
}, 120_000);

it('counts an upload still arriving: a second upload of the same user that would pass the quota with it is refused', async () => {
  const token = await keys.sign({ sub: 'user-c' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // each fits alone (~2.3 MB, ~2.1 MB of 3 MB); together they do not
  const first = multipart(
    { ...DEFAULT_FIELDS, pool_size: '20' },
    { name: 'a.csv', content: customerCsv(45_000, 20, 5) },
  );
  const second = customerCsv(40_000, 20, 6);
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/upload/',
    headers: {
      ...first.headers,
      authorization: `Bearer ${token}`,
      'content-length': String(first.payload.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
  });
  const earlier = new Set(await folders());
  const held = first.payload.length - 100_000;
  request.write(first.payload.subarray(0, held));
  // the first upload's bytes are on disk (so counted) before the second starts
  await vi.waitFor(
    async () => {
      let largest = 0;
      for (const name of (await folders()).filter((f) => !earlier.has(f))) {
        const size = await stat(join(dir, 'data', 'power7', name, 'upload.dat')).then(
          (s) => s.size,
          () => 0,
        );
        largest = Math.max(largest, size);
      }
      expect(largest).toBeGreaterThan(held - 200_000);
    },
    { timeout: 30_000, interval: 50 },
  );
  const refused = await upload(token, second).finally(() => {
    // the first upload ends whatever happened, so the app can close
    request.end(first.payload.subarray(held));
  });
  expect(refused.statusCode, refused.body).toBe(413);
  // what counts is the first upload's bytes so far: nothing of user C is stored yet
  expect(refused.json().message).toMatch(/quota of 3 MB is used up: .* take 2\.\d MB/);

  const done = await answer;
  expect(done.status, done.body).toBe(202);
}, 120_000);
