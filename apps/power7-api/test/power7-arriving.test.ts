// A large CSV read on the worker threads while it uploads: the same session as a read from disk.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ArrivingCsvRead } from '@pa/power7-engine/session-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  customerCsv,
  DEFAULT_FIELDS,
  multipart,
  multipartFieldsLast,
} from './helper';
import {
  analysisRun,
  app,
  auth,
  dir,
  finished,
  keys,
  POOL,
  tokenA,
  upload,
  usePower7App,
} from './power7-fixture';

usePower7App();

/** ~10 MB (over the 8 MiB from which an upload is read as it arrives), rejected rows mid-file. */
const lines = customerCsv(200_000, POOL, 31).trimEnd().split('\n');
lines.splice(120_000, 0, 'X1,Bad,1,1,2,3,4,5,6,99,oops', 'X2,Dup,1,1,1,2,3,4,5,6,dup');
lines.push('X3,Short,1,1,2,3');
const bigCsv = lines.join('\n') + '\n';

let fromDisk: FastifyInstance;
beforeAll(async () => {
  fromDisk = await buildTestApp({
    DATA_DIR: join(dir, 'from-disk'),
    JWKS_FILE: keys.file,
    UPLOAD_MAX_BYTES: String(12 * 1024 * 1024),
    READ_DURING_UPLOAD: 'false',
  });
});
afterAll(async () => {
  await fromDisk?.close();
});

// a budget every draw fits: 200k tickets pay far more than the default's
const FIELDS = { ...DEFAULT_FIELDS, budget: '1000000000', pool_size: String(POOL) };

/** Uploads `content` to `on` with the fields in the given order, and waits for its session. */
async function session(on: FastifyInstance, content: string, fieldsAfterFile = false) {
  const file = { name: 'big.csv', content };
  const body = fieldsAfterFile ? multipartFieldsLast(FIELDS, file) : multipart(FIELDS, file);
  expect(body.payload.length).toBeGreaterThan(8 << 20);
  const res = await on.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...auth(tokenA) },
  });
  expect(res.statusCode, res.body).toBe(202);
  return finished(tokenA, res.json().data._id, on);
}

/** What a user sees of a finished session: counts, rejected rows, the top draws and their winners. */
async function seen(on: FastifyInstance, done: { _id: string; rejectedReport: string }) {
  const get = (url: string) => on.inject({ url, headers: auth(tokenA) });
  const filter = await on.inject({
    method: 'POST',
    url: '/api/filter/',
    headers: auth(tokenA),
    payload: { session: done._id, pageSize: 20 },
  });
  const top = filter.json().data.items as { combo: string }[];
  const winners = await get(`/api/winners/${top[0]!.combo}/4/?session=${done._id}&pageSize=50`);
  return {
    report: (await get(done.rejectedReport)).body,
    top,
    winners: winners.json().data.items,
  };
}

describe('reading a large CSV while it uploads', () => {
  it('gives the session a read from disk gives, and leaves nothing held once the job has it', async () => {
    const [arrived, read] = await Promise.all([session(app, bigCsv), session(fromDisk, bigCsv)]);
    // the job took the upload's read, whose threads counted the tickets as they arrived; the other
    // analysis read the file from disk and counted them itself
    expect((await analysisRun(arrived._id, app)).countedWhileRead).toBe(true);
    expect((await analysisRun(read._id, fromDisk)).countedWhileRead).toBe(false);
    expect(arrived).toMatchObject({
      status: 'done',
      counts: { rowsRead: 200_003, accepted: 200_000, rejected: 3 },
    });
    expect(arrived.counts).toEqual(read.counts);
    expect(arrived.rejectedSample).toEqual(read.rejectedSample);
    expect(arrived.rejectedSample.map((r: { line: number }) => r.line)).toEqual([
      120_001, 120_002, 200_004,
    ]);
    const [a, b] = await Promise.all([seen(app, arrived), seen(fromDisk, read)]);
    expect(a).toEqual(b);
    expect(a.winners.length).toBeGreaterThan(0);
    expect(app.power7.sessions.memory.arrived.size).toBe(0);
  }, 120_000);

  it('holds at most one read per running job and one more: past that, the job reads from disk', async () => {
    // JOB_CONCURRENCY=2 here: three reads waiting for their jobs fill the places
    const { memory } = app.power7.sessions;
    const waiting = ['held-1', 'held-2', 'held-3'];
    for (const id of waiting) {
      const read = new ArrivingCsvRead({ pool: POOL, workers: 1 });
      memory.arrived.set(id, { read, result: read.end() });
    }
    try {
      const done = await session(app, bigCsv);
      expect(done).toMatchObject({ status: 'done', counts: { accepted: 200_000, rejected: 3 } });
      expect((await analysisRun(done._id)).countedWhileRead).toBe(false);
    } finally {
      for (const id of waiting) memory.dropArrived(id);
    }
    expect(memory.receiving).toBe(0);
    const next = await session(app, bigCsv);
    expect((await analysisRun(next._id)).countedWhileRead).toBe(true);
  }, 120_000);

  it('drops what it read of a refused upload', async () => {
    const res = await upload(tokenA, bigCsv, { ...FIELDS, payout_3: '-1' }, 'big.csv');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('payout_3');
    expect(app.power7.sessions.memory.arrived.size).toBe(0);
    expect(app.power7.sessions.memory.receiving).toBe(0);
  });

  it('reads the file again when the pool is named only after the file', async () => {
    const late = await session(app, bigCsv, true);
    // the upload read it for the default pool; the job, for this one, read it from disk
    expect((await analysisRun(late._id)).countedWhileRead).toBe(false);
    expect(late).toMatchObject({
      status: 'done',
      params: { pool_size: POOL },
      counts: { rowsRead: 200_003, accepted: 200_000, rejected: 3 },
    });
    expect(app.power7.sessions.memory.arrived.size).toBe(0);
  }, 120_000);
});
