// Each user's sessions take at most STORAGE_QUOTA_MB of disk: an upload that would pass it is
// refused with 413 naming the quota and the use, and leaves nothing behind.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { folderBytes } from '../src/sessions/quota';
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
