// Each user's sessions take at most STORAGE_QUOTA_MB of disk: an upload or a rerun that would pass it
// (its file while it streams, or what its analysis may write, reserved when it is accepted) is refused
// with 413 naming the quota and the use, and leaves nothing behind (ADR 019).
import { readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resultBytesBound } from '../src/modules/sessions/output-bound';
import { folderBytes } from '../src/modules/sessions/quota';
import { rerunSource } from '../src/modules/sessions/rerun';
import { validateUploadFields } from '../src/modules/sessions/upload';
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
const QUOTA_MB = 8;
/** A small pool: the results' bound stays far below the files, so the files decide what fits. */
const POOL = '12';

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
  const body = multipart({ ...DEFAULT_FIELDS, pool_size: POOL }, { name: 'c.csv', content });
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
  const first = await upload(token, customerCsv(20_000, 12, 1));
  expect(first.statusCode, first.body).toBe(202);
  const id = first.json().data._id as string;
  expect(await waitDone(token, id)).toBe('done');
  const used = await folderBytes(join(dir, 'data', 'power7', id));
  const room = QUOTA_MB * 1024 * 1024 - used;
  expect(room).toBeGreaterThan(0);

  // a file larger than the room left: refused while it streams, its folder removed
  const before = await folders();
  const big = customerCsv(Math.ceil(room / 40), 12, 2);
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

  // a file that fits the room left, but not with what its analysis may write (reserved at once)
  const fits = customerCsv(60_000, 12, 4);
  expect(fits.length).toBeLessThan(room);
  const reserved = await upload(token, fits);
  expect(reserved.statusCode, reserved.body).toBe(413);
  expect(reserved.json()).toMatchObject({
    code: 'PAYLOAD_TOO_LARGE',
    errors: [{ field: 'customer_file' }],
  });
  expect(reserved.json().message).toMatch(
    new RegExp(
      `quota of ${QUOTA_MB} MB is used up: .* take ${Math.round((used / 1024 / 1024) * 10) / 10} MB and this upload's analysis may need up to \\d+(\\.\\d)? MB`,
    ),
  );
  expect(await folders()).toEqual(before);

  // another user has a quota of their own
  const other = await keys.sign({ sub: 'user-b' });
  const theirs = await upload(other, customerCsv(2000, 12, 3));
  expect(theirs.statusCode, theirs.body).toBe(202);
  expect(await waitDone(other, theirs.json().data._id)).toBe('done');

  // clearing the sessions makes room again
  const cleared = await app.inject({
    method: 'POST',
    url: '/api/sessions/clear-all/',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(cleared.statusCode).toBe(200);
  const again = await upload(token, fits);
  expect(again.statusCode, again.body).toBe(202);
  expect(await waitDone(token, again.json().data._id)).toBe('done');
}, 120_000);

it('counts an upload still arriving: a second upload of the same user that would pass the quota with it is refused', async () => {
  const token = await keys.sign({ sub: 'user-c' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // each fits alone (~3.3 MB and ~2.9 MB of 8 MB, ~7.1 and ~6.5 MB with what their analyses may
  // write); the second does not fit beside the first still arriving
  const first = multipart(
    { ...DEFAULT_FIELDS, pool_size: POOL },
    { name: 'a.csv', content: customerCsv(68_000, 12, 5) },
  );
  const second = customerCsv(60_000, 12, 6);
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
  expect(refused.json().message).toMatch(/quota of 8 MB is used up: .* take 3\.\d MB/);

  const done = await answer;
  expect(done.status, done.body).toBe(202);
}, 120_000);

it('checks again before the results are written: a job whose rejected rows leave no room for its results fails with STORAGE_QUOTA_EXCEEDED and writes none', async () => {
  const token = await keys.sign({ sub: 'user-d' });
  // 40,000 rows refused for a letter among the numbers: their report (which no bound foresees when
  // the file is accepted) takes more than the file itself
  const refusedRows = Array.from(
    { length: 40_000 },
    (_, i) => `D${i},Name ${i},+1555${i},1,2,3,4,5,6,x,${'n'.repeat(40)}`,
  );
  const res = await upload(token, customerCsv(20, 12, 7, refusedRows));
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data._id as string;
  expect(await waitDone(token, id)).toBe('failed');
  const status = await app.inject({
    url: `/api/power7/processing-status/?session=${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(status.json().data.error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
  expect(status.json().data.error.message).toMatch(
    new RegExp(`storage quota of ${QUOTA_MB} MB would be passed`),
  );
  // nothing of the results, not even a temporary file
  const kept = await readdir(join(dir, 'data', 'power7', id));
  expect(kept.filter((name) => /analysis|qualifying|distribution|\.tmp/.test(name))).toEqual([]);
}, 120_000);

describe('reruns at once under a small quota', () => {
  let dataDir: string;
  let quotaBytes: number;
  let sourceId: string;
  let rerunApp: FastifyInstance | undefined;
  const FIELDS = { ...DEFAULT_FIELDS, pool_size: POOL };
  /** The rerun's fields: the same pool, so the source's read files are linked, not read again. */
  const RERUN = { ...FIELDS, budget: '700' };

  beforeAll(async () => {
    dataDir = join(dir, 'reruns');
    // the source session, made with room to spare
    const roomy = await buildTestApp({ DATA_DIR: dataDir, JWKS_FILE: keys.file });
    try {
      const token = await keys.sign({ sub: 'user-r' });
      const body = multipart(FIELDS, { name: 'r.csv', content: customerCsv(2000, 12, 9) });
      const res = await roomy.inject({
        method: 'POST',
        url: '/api/upload/',
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(202);
      sourceId = res.json().data._id;
      for (let i = 0; i < 2400; i++) {
        const row = await roomy.power7.sessions.queries.find(
          { userId: 'user-r', companyId: 'company-a' },
          sourceId,
        );
        if (row.status === 'done') break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await roomy.close();
    }
    // room for the source and three reruns at their largest, not four
    const sourceDir = join(dataDir, 'power7', sourceId);
    const files = await rerunSource(sourceDir, join(dir, 'not-made'), 12);
    const reserved =
      files.bytes +
      resultBytesBound({
        pool: 12,
        tickets: files.tickets,
        params: validateUploadFields(RERUN as Record<string, string>),
        countsStored: files.countsLinked,
      });
    quotaBytes = (await folderBytes(sourceDir)) + 3.5 * reserved;
    rerunApp = await buildTestApp({
      DATA_DIR: dataDir,
      JWKS_FILE: keys.file,
      STORAGE_QUOTA_MB: String(quotaBytes / 1024 / 1024),
      JOBS_PER_USER: '10',
    });
  }, 120_000);

  afterAll(async () => {
    await rerunApp?.close();
  });

  it('accepts only as many as fit with what their analyses may write; the rest 413, and the results stay inside the quota', async () => {
    const token = await keys.sign({ sub: 'user-r' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        rerunApp!.inject({
          method: 'POST',
          url: `/api/power7/sessions/${sourceId}/rerun/`,
          headers: { authorization: `Bearer ${token}` },
          payload: RERUN,
        }),
      ),
    );
    const accepted = answers.filter((res) => res.statusCode === 202);
    const refused = answers.filter((res) => res.statusCode !== 202);
    expect(accepted.length, answers.map((res) => res.body).join('\n')).toBe(3);
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', status: 413 });
      expect(res.json().message).toMatch(
        /Your storage quota of \d+(\.\d)? MB is used up: your sessions .* take \d+(\.\d)? MB and this rerun's analysis may need up to \d+(\.\d)? MB/,
      );
    }
    const ids = accepted.map((res) => res.json().data._id as string);
    for (const id of ids) {
      await vi.waitFor(
        async () => {
          const row = await rerunApp!.power7.sessions.queries.find(
            { userId: 'user-r', companyId: 'company-a' },
            id,
          );
          expect(row.status, JSON.stringify(row.error)).not.toMatch(/queued|running/);
          expect(row.status, JSON.stringify(row.error)).toBe('done');
        },
        { timeout: 60_000, interval: 50 },
      );
    }
    // the refused ones left no folder; what is stored fits the quota
    const stored = await readdir(join(dataDir, 'power7'));
    expect(stored.sort()).toEqual([sourceId, ...ids].sort());
    const sizes = await Promise.all(stored.map((id) => folderBytes(join(dataDir, 'power7', id))));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(quotaBytes);
  }, 120_000);
});
