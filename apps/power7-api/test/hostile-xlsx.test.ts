// A hostile XLSX fails its own session and nothing else (issue #24): the workbook is read on a worker
// thread whose heap is bounded, so the service keeps answering and the next upload runs as usual.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_ROW, sheetXml, workbookWith } from '@pa/power7-engine/testing/xlsx-zip';
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
let token: string;

beforeAll(async () => {
  dir = await tempDir();
  const keys = await makeKeys(dir);
  app = await buildTestApp({
    DATA_DIR: join(dir, 'data'),
    JWKS_FILE: keys.file,
    XLSX_MAX_MEMORY_MB: '128',
  });
  token = await keys.sign();
});

afterAll(async () => {
  await app?.close();
  if (dir) await cleanup(dir);
});

/** Rows of never-closed tags, each far below the guard's row limit: the XML parser keeps them all. */
function unclosedTags() {
  function* rows() {
    yield HEADER_ROW;
    for (let r = 2; r < 40; r++) yield `<row r="${r}">${'<a>'.repeat(1_000_000)}`;
  }
  return workbookWith(sheetXml(rows()));
}

async function post(content: Buffer | string, name: string) {
  const body = multipart({ ...DEFAULT_FIELDS, pool_size: '14' }, { name, content });
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}`, 'x-csrftoken': 'form-token' },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data._id as string;
}

/** Waits for the session to leave queued/running, asking /api/live/ between status calls. */
async function finishedWhileLive(session: string) {
  const live: number[] = [];
  for (let i = 0; i < 2400; i++) {
    live.push((await app.inject({ url: '/api/live/' })).statusCode);
    const res = await app.inject({
      url: `/api/power7/processing-status/?session=${session}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const data = res.json().data;
    if (data.status !== 'queued' && data.status !== 'running') return { data, live };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('session did not finish');
}

describe('a hostile XLSX', () => {
  it('fails its own session with XLSX_TOO_LARGE while the service answers throughout', async () => {
    const bytes = await unclosedTags();
    expect(bytes.length).toBeLessThan(1 << 20);
    const { data, live } = await finishedWhileLive(await post(bytes, 'customers.xlsx'));
    expect(data.status).toBe('failed');
    expect(data.error).toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('128 MiB'),
    });
    expect(live.length).toBeGreaterThan(1);
    expect(new Set(live)).toEqual(new Set([200]));
    // nothing of the read is left in the session's folder (ExcelJS's temp files went with it)
    const sessionDirs = await readdir(join(dir, 'data', 'power7'), { recursive: true });
    expect(sessionDirs.filter((name) => name.includes('xlsx-scratch'))).toEqual([]);

    // and the next upload runs as usual
    const next = await finishedWhileLive(await post(customerCsv(50, 14), 'customers.csv'));
    expect(next.data.status).toBe('done');
  }, 180_000);
});
