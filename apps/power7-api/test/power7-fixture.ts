/**
 * The Power 7 app the service tests share: built in the calling file's `beforeAll` with one finished
 * session of `csvText` (user A's), closed in its `afterAll`. The bindings below are live: a test
 * file imports `app`, `tokenA`, … and sees them once its `beforeAll` has run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SESSION_FILES } from '@pa/power7-engine/session-store';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
  type UploadFields,
} from './helper';

export const POOL = 14;

export let dir: string;
export let app: FastifyInstance;
export let keys: Awaited<ReturnType<typeof makeKeys>>;
export let tokenA: string;
export let sessionA: string;
export let csvFile: string;

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * What a finished session's analysis recorded of its own run in the session folder (the timings of
 * `analysis.json`): whether it took its count tables from the folder (`countsReused`, a rerun's) and
 * whether the threads that read the upload as it arrived counted its tickets (`countedWhileRead`).
 */
export async function analysisRun(session: string, on: FastifyInstance = app) {
  const file = join(on.power7.sessions.memory.dirOf(session), SESSION_FILES.analysis);
  const { timings } = JSON.parse(await readFile(file, 'utf8')) as {
    timings: { countsReused?: boolean; countedWhileRead?: boolean };
  };
  return {
    countsReused: timings.countsReused === true,
    countedWhileRead: timings.countedWhileRead === true,
  };
}

export async function upload(
  token: string,
  content: Buffer | string,
  fields: UploadFields = { ...DEFAULT_FIELDS, pool_size: String(POOL) },
  name = 'customers.csv',
) {
  const body = multipart(fields, { name, content });
  return app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...auth(token), 'x-csrftoken': 'form-token' },
  });
}

/** Polls the status (of this file's app, or `on`) until the session leaves queued/running. */
export async function finished(token: string, session: string, on: FastifyInstance = app) {
  for (let i = 0; i < 600; i++) {
    const res = await on.inject({
      url: `/api/power7/processing-status/?session=${session}`,
      headers: auth(token),
    });
    const data = res.json().data;
    if (data.status !== 'queued' && data.status !== 'running') return data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('session did not finish');
}

export async function uploadAndWait(
  token: string,
  content: Buffer | string,
  fields?: UploadFields,
  name?: string,
) {
  const res = await upload(token, content, fields, name);
  expect(res.statusCode, res.body).toBe(202);
  return finished(token, res.json().data._id);
}

export function matchCount(ticket: number[], draw: number[]) {
  return ticket.filter((n) => draw.includes(n)).length;
}

export const csvText = customerCsv(3000, POOL, 7, [
  'X1,Bad,1,1,2,3,4,5,6,99,oops',
  'X2,Dup,1,1,1,2,3,4,5,6,dup',
]);
export const tickets = csvText
  .trim()
  .split('\n')
  .slice(1, 3001)
  .map((line) => line.split(',').slice(3, 10).map(Number));

/** Builds the app with user A's finished session before the calling file's tests, and closes it after. */
export function usePower7App(): void {
  beforeAll(async () => {
    dir = await tempDir();
    keys = await makeKeys(dir);
    app = await buildTestApp({
      DATA_DIR: join(dir, 'data'),
      JWKS_FILE: keys.file,
      UPLOAD_MAX_BYTES: String(12 * 1024 * 1024),
      JOB_CONCURRENCY: '2',
    });
    tokenA = await keys.sign();
    csvFile = join(dir, 'customers.csv');
    await writeFile(csvFile, csvText);
    const done = await uploadAndWait(tokenA, csvText);
    expect(done.status).toBe('done');
    sessionA = done._id;
  });

  afterAll(async () => {
    await app?.close();
    if (dir) await cleanup(dir);
  });
}
