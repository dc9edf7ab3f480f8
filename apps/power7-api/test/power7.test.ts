import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { SignJWT, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { isEnvelope } from '@pa/contracts/envelope';
import {
  ALL_PERMS,
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  engineCliAnalyze,
  makeKeys,
  multipart,
  randomTicket,
  rng,
  tempDir,
  type UploadFields,
} from './helper';

const POOL = 14;

let dir: string;
let app: FastifyInstance;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let tokenA: string;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function upload(
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

/** Polls the status until the session leaves queued/running. */
async function finished(token: string, session: string) {
  for (let i = 0; i < 600; i++) {
    const res = await app.inject({
      url: `/api/power7/processing-status/?session=${session}`,
      headers: auth(token),
    });
    const data = res.json().data;
    if (data.status !== 'queued' && data.status !== 'running') return data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('session did not finish');
}

async function uploadAndWait(
  token: string,
  content: Buffer | string,
  fields?: UploadFields,
  name?: string,
) {
  const res = await upload(token, content, fields, name);
  expect(res.statusCode, res.body).toBe(202);
  return finished(token, res.json().data._id);
}

function matchCount(ticket: number[], draw: number[]) {
  return ticket.filter((n) => draw.includes(n)).length;
}

const csvText = customerCsv(3000, POOL, 7, [
  'X1,Bad,1,1,2,3,4,5,6,99,oops',
  'X2,Dup,1,1,1,2,3,4,5,6,dup',
]);
const tickets = csvText
  .trim()
  .split('\n')
  .slice(1, 3001)
  .map((line) => line.split(',').slice(3, 10).map(Number));

let sessionA: string;
let csvFile: string;

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

describe('tokens and permissions', () => {
  it('refuses a missing, malformed, tampered, expired, alg:none, foreign or refresh token', async () => {
    const call = (headers: Record<string, string>) =>
      app.inject({ url: '/api/power7/processing-status/', headers });
    expect((await call({})).statusCode).toBe(401);
    expect((await call({ authorization: 'Token abc' })).statusCode).toBe(401);
    const [h, p, s] = tokenA.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(p!)));
    const forged = base64url.encode(JSON.stringify({ ...claims, sub: 'someone-else' }));
    expect((await call(auth(`${h}.${forged}.${s}`))).statusCode).toBe(401);
    const expired = await keys.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const res = await call(auth(expired));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/);
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`;
    expect((await call(auth(none))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({}, { audience: 'other' })))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({}, { issuer: 'evil' })))).statusCode).toBe(401);
    expect((await call(auth(await keys.sign({ typ: 'refresh' })))).statusCode).toBe(401);
    // a token signed by a key the portal never published
    const { generateKeyPair } = await import('jose');
    const other = await generateKeyPair('EdDSA');
    const stranger = await new SignJWT({ cid: 'company-a', perms: ALL_PERMS, typ: 'access' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'test-key' })
      .setSubject('user-a')
      .setIssuer('power-analyzer-portal')
      .setAudience('power-analyzer')
      .setExpirationTime('5m')
      .sign(other.privateKey);
    const strangerRes = await call(auth(stranger));
    expect(strangerRes.statusCode).toBe(401);
    expect(isEnvelope(strangerRes.json())).toBe(true);
    expect((await call(auth(tokenA))).statusCode).toBe(200);
  });

  it('needs power7.run to upload and filter, power7.download for winners and downloads, power7.sessions.clear to clear', async () => {
    const downloader = await keys.sign({ perms: ['power7.download'] });
    const runner = await keys.sign({ perms: ['power7.run'] });
    expect((await upload(downloader, csvText)).statusCode).toBe(403);
    const filter = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(downloader),
      payload: {},
    });
    expect(filter.statusCode).toBe(403);
    expect(filter.json().code).toBe('FORBIDDEN');
    const combo = '1-2-3-4-5-6-7';
    for (const url of [
      `/api/winners/${combo}/3/`,
      `/api/download/${combo}/3/`,
      `/api/download-all/${combo}/`,
    ]) {
      expect((await app.inject({ url, headers: auth(runner) })).statusCode).toBe(403);
    }
    const clear = await app.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(runner),
    });
    expect(clear.statusCode).toBe(403);
  });

  it("hides another user's and another company's sessions (404)", async () => {
    const userB = await keys.sign({ sub: 'user-b' });
    const otherCompany = await keys.sign({ cid: 'company-b' });
    for (const token of [userB, otherCompany]) {
      const status = await app.inject({
        url: `/api/power7/processing-status/?session=${sessionA}`,
        headers: auth(token),
      });
      expect(status.statusCode).toBe(404);
      const filter = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(token),
        payload: { session: sessionA },
      });
      expect(filter.statusCode).toBe(404);
      const winners = await app.inject({
        url: `/api/winners/1-2-3-4-5-6-7/3/?session=${sessionA}`,
        headers: auth(token),
      });
      expect(winners.statusCode).toBe(404);
      const rejected = await app.inject({
        url: `/api/power7/sessions/${sessionA}/rejected.csv`,
        headers: auth(token),
      });
      expect(rejected.statusCode).toBe(404);
      const list = await app.inject({ url: '/api/power7/sessions/', headers: auth(token) });
      expect(list.json().data.items.map((s: { _id: string }) => s._id)).not.toContain(sessionA);
    }
  });
});

describe('upload', () => {
  const cases: [string, UploadFields, string][] = [
    ['budget_type missing', { ...DEFAULT_FIELDS, budget_type: undefined }, 'budget_type'],
    ['budget_type unknown', { ...DEFAULT_FIELDS, budget_type: 'weekly' }, 'budget_type'],
    ['fixed without budget', { ...DEFAULT_FIELDS, budget: undefined }, 'budget'],
    ['negative budget', { ...DEFAULT_FIELDS, budget: '-1' }, 'budget'],
    [
      'range with min > max',
      { ...DEFAULT_FIELDS, budget_type: 'range', budget_min: '10', budget_max: '5' },
      'budget_max',
    ],
    [
      'range without max',
      { ...DEFAULT_FIELDS, budget_type: 'range', budget_min: '1' },
      'budget_max',
    ],
    ['negative payout', { ...DEFAULT_FIELDS, payout_4: '-5' }, 'payout_4'],
    ['payout not a number', { ...DEFAULT_FIELDS, payout_6: 'lots' }, 'payout_6'],
    [
      'all payouts zero',
      {
        ...DEFAULT_FIELDS,
        payout_3: '0',
        payout_4: '0',
        payout_5: '0',
        payout_6: '0',
        payout_7: '0',
      },
      'payout_3',
    ],
    ['pool too large', { ...DEFAULT_FIELDS, pool_size: '50' }, 'pool_size'],
    ['pool too small', { ...DEFAULT_FIELDS, pool_size: '7' }, 'pool_size'],
  ];
  it.each(cases)('names the field: %s', async (_name, fields, field) => {
    const before = (
      await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) })
    ).json().data.total;
    const res = await upload(tokenA, csvText, fields);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
    const after = (await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) })).json()
      .data.total;
    expect(after).toBe(before);
  });

  it('requires the file, refuses an empty one, and a non-multipart body', async () => {
    const noFile = multipart({ ...DEFAULT_FIELDS });
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: noFile.payload,
      headers: { ...noFile.headers, ...auth(tokenA) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('customer_file');
    const empty = await upload(tokenA, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0]).toMatchObject({ field: 'customer_file' });
    const json = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: { budget_type: 'fixed' },
      headers: auth(tokenA),
    });
    expect(json.statusCode).toBe(415);
    expect(isEnvelope(json.json())).toBe(true);
  });

  it('answers 400 in the envelope for a body cut before its closing boundary and for two files', async () => {
    const before = await readdir(join(dir, 'data', 'power7'));
    const whole = multipart(
      { ...DEFAULT_FIELDS, pool_size: String(POOL) },
      { name: 'customers.csv', content: csvText },
    );
    const cut = whole.payload.subarray(0, whole.payload.lastIndexOf('--') - 40);
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: cut,
      headers: { ...whole.headers, ...auth(tokenA) },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR', status: 400 });

    // a second customer_file part, spliced in before the closing boundary
    const boundary = whole.headers['content-type'].split('boundary=')[1]!;
    const second = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="customer_file"; filename="b.csv"\r\n\r\n${csvText}\r\n`,
    );
    const end = whole.payload.lastIndexOf(`--${boundary}--`);
    const two = Buffer.concat([
      whole.payload.subarray(0, end),
      second,
      whole.payload.subarray(end),
    ]);
    const twice = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: two,
      headers: { ...whole.headers, ...auth(tokenA) },
    });
    expect(twice.statusCode, twice.body).toBe(400);
    expect(twice.json().errors[0]).toMatchObject({ field: 'customer_file' });
    expect(await readdir(join(dir, 'data', 'power7'))).toEqual(before);
  });

  it('answers 413 in the envelope for a file over the limit and keeps nothing of it', async () => {
    const before = await readdir(join(dir, 'data', 'power7'));
    const res = await upload(tokenA, Buffer.alloc(13 * 1024 * 1024, 0x31));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', status: 413 });
    expect(await readdir(join(dir, 'data', 'power7'))).toEqual(before);
  });

  it('answers 202 with the session and reports phase, progress, counts and rejected rows', async () => {
    const res = await upload(tokenA, csvText);
    expect(res.statusCode).toBe(202);
    const session = res.json().data;
    expect(session).toMatchObject({
      status: expect.stringMatching(/queued|running/),
      params: { budget_type: 'fixed', budget: 60000, pool_size: POOL, payouts: { 3: 1, 7: 5000 } },
      originalName: 'customers.csv',
    });
    const done = await finished(tokenA, session._id);
    expect(done).toMatchObject({
      status: 'done',
      phase: 'done',
      progress: 1,
      counts: { rowsRead: 3002, accepted: 3000, rejected: 2, draws: 3432 },
      error: null,
    });
    expect(done.counts.drawsQualified).toBeGreaterThan(0);
    expect(done.timings.totalMs).toBeGreaterThanOrEqual(0);
    expect(done.rejectedSample.map((r: { line: number }) => r.line)).toEqual([3002, 3003]);
    const report = await app.inject({ url: done.rejectedReport, headers: auth(tokenA) });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-disposition']).toMatch(
      /attachment; filename=".*rejected-rows\.csv"/,
    );
    const lines = report.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe('line,reason,raw');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['3002', '3003']);
    // without ?session= the status is the caller's latest
    const latest = await app.inject({
      url: '/api/power7/processing-status/',
      headers: auth(tokenA),
    });
    expect(latest.json().data._id).toBe(session._id);
  });

  it('reads an XLSX file to the same results as the CSV', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('tickets');
    sheet.addRow(['Customer_ID', 'Name', 'numbers']);
    tickets.forEach((t, i) => sheet.addRow([`C${i + 1}`, `Name ${i + 1}`, t.join(' ')]));
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const done = await uploadAndWait(tokenA, xlsx, undefined, 'customers.xlsx');
    expect(done).toMatchObject({ status: 'done', counts: { accepted: 3000, rejected: 0 } });
    const filter = (session: string) =>
      app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload: { session, pageSize: 50 },
      });
    const [a, b] = await Promise.all([filter(sessionA), filter(done._id)]);
    expect(b.json().data.items).toEqual(a.json().data.items);
    expect(b.json().data.stats).toEqual(a.json().data.stats);
  });

  it('refuses at once, with 400 on customer_file and nothing kept, a file whose start cannot be a customer file', async () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    // larger than what the sniff looks at: the refusal still waits for the body's end and keeps nothing
    const bigJunk = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < bigJunk.length; i++) bigJunk[i] = (i * 7919) % 251;
    const files: [string, Buffer | string, RegExp][] = [
      ['binary junk', junk, /binary/],
      ['3 MB of binary junk', bigJunk, /binary/],
      ['blank lines only', ' \r\n\n\t\n', /empty/],
      ['wrong header', 'foo,bar,baz\n1,2,3\n4,5,6\n', /no recognisable number columns.*"foo"/],
      ['wrong header, BOM, no line end', '\ufeffcustomer;phone', /no recognisable number columns/],
    ];
    const before = await readdir(join(dir, 'data', 'power7'));
    const total = async () =>
      (await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) })).json().data
        .total as number;
    const sessionsBefore = await total();
    for (const [what, content, message] of files) {
      const res = await upload(tokenA, content, undefined, 'customers.csv');
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(res.json().errors, what).toEqual([
        expect.objectContaining({
          field: 'customer_file',
          message: expect.stringMatching(message),
        }),
      ]);
    }
    expect(await readdir(join(dir, 'data', 'power7'))).toEqual(before);
    expect(await total()).toBe(sessionsBefore);
    // bad fields are still named first
    const both = await upload(tokenA, junk, { ...DEFAULT_FIELDS, payout_3: '-1' });
    expect(both.json().errors.map((e: { field: string }) => e.field)).toEqual(['payout_3']);
  });

  it('keeps the counts and the rejected-rows report of a file without one valid row', async () => {
    const content = 'n1,n2,n3,n4,n5,n6,n7\n1,2,3,4,5,6,60\n\n1,1,2,3,4,5,6\nx,2,3,4,5,6,7\n';
    const done = await uploadAndWait(tokenA, content, undefined, 'invalid.csv');
    expect(done).toMatchObject({
      status: 'failed',
      error: { code: 'NO_VALID_ROWS' },
      counts: { rowsRead: 3, accepted: 0, rejected: 3 },
      rejectedReport: `/api/power7/sessions/${done._id}/rejected.csv`,
    });
    expect(done.rejectedSample.map((r: { line: number }) => r.line)).toEqual([2, 4, 5]);
    const report = await app.inject({ url: done.rejectedReport, headers: auth(tokenA) });
    expect(report.statusCode).toBe(200);
    expect(report.body.trim().split('\r\n')).toEqual([
      'line,reason,raw',
      `2,out of pool: 60 is not in 1..${POOL},"1,2,3,4,5,6,60"`,
      '4,duplicate: 1 appears more than once,"1,1,2,3,4,5,6"',
      '5,"""x"" is not an integer","x,2,3,4,5,6,7"',
    ]);
    // a header without rows: counts of zero and an empty report
    const headerOnly = await uploadAndWait(tokenA, 'n1,n2,n3,n4,n5,n6,n7\n', undefined, 'h.csv');
    expect(headerOnly.counts).toMatchObject({ rowsRead: 0, accepted: 0, rejected: 0 });
    // stored with the session, not only in memory
    const listed = await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) });
    const row = listed.json().data.items.find((s: { _id: string }) => s._id === done._id);
    expect(row.counts).toMatchObject({ rowsRead: 3, accepted: 0, rejected: 3 });
  });

  it('gives each file the start of which looks fine a clear error in the status and stays healthy', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('s').addRow(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7']);
    const goodXlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const wrongXlsx = new ExcelJS.Workbook();
    wrongXlsx.addWorksheet('s').addRow(['foo', 'bar']);
    const files: [string, Buffer | string, string, string][] = [
      [
        'truncated XLSX',
        goodXlsx.subarray(0, Math.floor(goodXlsx.length / 2)),
        'cut.xlsx',
        'XLSX_INVALID',
      ],
      [
        'XLSX with a wrong header',
        Buffer.from(await wrongXlsx.xlsx.writeBuffer()),
        'wrong.xlsx',
        'NO_NUMBER_COLUMNS',
      ],
      ['header only', 'n1,n2,n3,n4,n5,n6,n7\n', 'header.csv', 'NO_VALID_ROWS'],
      [
        'no valid row',
        'n1,n2,n3,n4,n5,n6,n7\n1,2,3,4,5,6,60\n1,1,2,3,4,5,6\n',
        'invalid.csv',
        'NO_VALID_ROWS',
      ],
      [
        'a 10 MB line',
        `n1,n2,n3,n4,n5,n6,n7\n${'9'.repeat(10 * 1024 * 1024)}\n`,
        'long.csv',
        'LINE_TOO_LONG',
      ],
    ];
    for (const [what, content, name, code] of files) {
      const done = await uploadAndWait(tokenA, content, undefined, name);
      expect(done.status, what).toBe('failed');
      expect(done.error, what).toMatchObject({ code, message: expect.any(String) });
      expect(done.error.message.length, what).toBeGreaterThan(10);
      const filter = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload: { session: done._id },
      });
      expect(filter.statusCode, what).toBe(409);
    }
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    const ok = await uploadAndWait(tokenA, csvText);
    expect(ok.status).toBe('done');
  });

  it('keeps the uploaded CSV as the rows file (no copy), whatever the order of the form, and reports stage timings', async () => {
    // the fields after the file
    const body = multipart({}, { name: 'late.csv', content: csvText });
    const tail = multipart({ ...DEFAULT_FIELDS, pool_size: String(POOL) });
    const boundary = body.headers['content-type'].split('boundary=')[1]!;
    const fieldsPart = tail.payload
      .toString()
      .replaceAll(tail.headers['content-type'].split('boundary=')[1]!, boundary);
    const payload = Buffer.concat([
      body.payload.subarray(0, body.payload.length - `--${boundary}--\r\n`.length),
      Buffer.from(fieldsPart),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload,
      headers: { ...body.headers, ...auth(tokenA) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const late = await finished(tokenA, res.json().data._id);
    expect(late).toMatchObject({
      status: 'done',
      counts: { rowsRead: 3002, accepted: 3000, rejected: 2 },
    });
    for (const stage of ['uploadMs', 'readMs', 'queuedMs', 'analysisMs', 'saveMs', 'totalMs']) {
      expect(late.timings[stage], stage).toBeGreaterThanOrEqual(0);
    }
    const folder = join(dir, 'data', 'power7', late._id);
    const files = await readdir(folder);
    expect(files).not.toContain('upload.dat');
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(await readFile(join(folder, 'rows.csv'), 'utf8')).toBe(csvText);
    const filter = (session: string) =>
      app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload: { session, pageSize: 30 },
      });
    const [a, b] = await Promise.all([filter(sessionA), filter(late._id)]);
    expect(b.json().data.items).toEqual(a.json().data.items);
    const winners = (session: string) =>
      app.inject({
        url: `/api/winners/${a.json().data.items[0].combo}/4/?session=${session}&pageSize=20`,
        headers: auth(tokenA),
      });
    const [wa, wb] = await Promise.all([winners(sessionA), winners(late._id)]);
    expect(wb.json().data.items).toEqual(wa.json().data.items);
    expect(wb.json().data.items.length).toBeGreaterThan(0);
  });

  it('finishes two users uploading at the same time', async () => {
    const userB = await keys.sign({ sub: 'user-b' });
    const [a, b] = await Promise.all([
      uploadAndWait(tokenA, customerCsv(2000, POOL, 11)),
      uploadAndWait(userB, customerCsv(2500, POOL, 12)),
    ]);
    expect(a).toMatchObject({ status: 'done', counts: { accepted: 2000 } });
    expect(b).toMatchObject({ status: 'done', counts: { accepted: 2500 } });
  });
});

describe('filter, winners and downloads', () => {
  it('equals the engine CLI on the same file', async () => {
    const cli = await engineCliAnalyze(csvFile, 60000, POOL);
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: { session: sessionA, pageSize: 20, sort: 'totalPayout:desc' },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.qualified).toBe(cli.qualified);
    expect(data.total).toBe(cli.qualified);
    expect(data.stats).toMatchObject(cli.totalPayout);
    expect(data.stats.draws).toBe(cli.draws);
    expect(
      data.items.map((d: { combo: string; winners: unknown; totalPayout: number }) => ({
        combo: d.combo,
        winners: d.winners,
        totalPayout: d.totalPayout,
      })),
    ).toEqual(cli.top);
    expect(data.stats.histogram.counts.reduce((a: number, b: number) => a + b, 0)).toBe(cli.draws);
    expect(data.stats.worstDraw.totalPayout).toBe(cli.totalPayout.max);
  });

  it('filters, sorts and pages the qualifying draws', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: {
        session: sessionA,
        filters: {
          winners: { 3: { min: 1 } },
          totalPayout: { min: 40000, max: 55000 },
          mustInclude: [1],
          mustExclude: [2],
        },
        sort: 'totalPayout:asc',
        page: 1,
        pageSize: 5,
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.pageSize).toBe(5);
    expect(data.items.length).toBeGreaterThan(0);
    for (const d of data.items) {
      expect(d.numbers).toContain(1);
      expect(d.numbers).not.toContain(2);
      expect(d.totalPayout).toBeGreaterThanOrEqual(40000);
      expect(d.totalPayout).toBeLessThanOrEqual(55000);
      // recount this draw's winners ticket by ticket
      const byMatch = { 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 } as Record<number, number>;
      for (const t of tickets) {
        const m = matchCount(t, d.numbers);
        if (m >= 3) byMatch[m]!++;
      }
      expect(d.winners).toEqual({
        3: byMatch[3],
        4: byMatch[4],
        5: byMatch[5],
        6: byMatch[6],
        7: byMatch[7],
      });
    }
    const totals = data.items.map((d: { totalPayout: number }) => d.totalPayout);
    expect([...totals].sort((a, b) => a - b)).toEqual(totals);
    for (const payload of [
      { session: sessionA, sort: 'luck:desc' },
      { session: sessionA, pageSize: 1000 },
      { session: sessionA, filters: { totalPayout: { min: 5, max: 1 } } },
      { session: sessionA, filters: { mustInclude: [60] } },
    ]) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('lists winners page by page and the downloads hold the same tickets', async () => {
    const draw = randomTicket(POOL, rng(99));
    const combo = draw.join('-');
    const expected = tickets
      .map((t, i) => ({ t, line: i + 2 }))
      .filter(({ t }) => matchCount(t, draw) === 3);
    const seen: number[] = [];
    let page = 1;
    for (;;) {
      const res = await app.inject({
        url: `/api/winners/${combo}/3/?session=${sessionA}&page=${page}&pageSize=100`,
        headers: auth(tokenA),
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.total).toBe(expected.length);
      seen.push(...data.items.map((w: { line: number }) => w.line));
      if (page >= data.totalPages) break;
      page++;
    }
    expect(seen).toEqual(expected.map((e) => e.line));
    const first = (
      await app.inject({
        url: `/api/winners/${combo}/3/?session=${sessionA}&pageSize=1`,
        headers: auth(tokenA),
      })
    ).json().data.items[0];
    expect(first).toMatchObject({
      matchType: 3,
      payout: 1,
      customerId: expect.stringMatching(/^C\d+$/),
    });
    expect(first.matched).toHaveLength(3);

    const csv = await app.inject({
      url: `/api/download/${combo}/3/?session=${sessionA}`,
      headers: auth(tokenA),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="power7-${combo}-match3.csv"`,
    );
    const rows = csv.body.trim().split(/\r?\n/);
    expect(rows[0]).toMatch(/^customer_id,name,phone,n1/);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(
      expected.map(({ line }) => `C${line - 1}`),
    );

    const all = await app.inject({
      url: `/api/download-all/${combo}/?session=${sessionA}`,
      headers: auth(tokenA),
    });
    expect(all.statusCode).toBe(200);
    const allCount = tickets.filter((t) => matchCount(t, draw) >= 3).length;
    expect(all.body.trim().split(/\r?\n/)).toHaveLength(allCount + 1);
  });

  it('neutralises formula cells in every download and in the rejected-rows report', async () => {
    const content = [
      'customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note',
      'C1,"=HYPERLINK(""http://evil.example"",""click"")",+15551234,1,2,3,4,5,6,7,@SUM(A1)',
      'C2,-1+1,-5,1,2,3,4,5,6,7,"\t=cmd"',
      "=cmd|' /C calc'!A0,x,1,1,2,3,4,5,6,99,y",
    ].join('\n');
    const done = await uploadAndWait(tokenA, content);
    expect(done.status).toBe('done');
    const query = `?session=${done._id}`;
    const c1 = `C1,"'=HYPERLINK(""http://evil.example"",""click"")",+15551234,1,2,3,4,5,6,7,"'@SUM(A1)",7,1-2-3-4-5-6-7,5000`;
    const c2 = `C2,"'-1+1",-5,1,2,3,4,5,6,7,"'\t=cmd",7,1-2-3-4-5-6-7,5000`;
    for (const url of ['/api/download/1-2-3-4-5-6-7/7/', '/api/download-all/1-2-3-4-5-6-7/']) {
      const res = await app.inject({ url: url + query, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(200);
      expect(res.body.split('\r\n'), url).toEqual([
        'customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note,match_type,matched_numbers,payout',
        c1,
        c2,
        '',
      ]);
    }
    const report = await app.inject({
      url: `/api/power7/sessions/${done._id}/rejected.csv`,
      headers: auth(tokenA),
    });
    expect(report.body.split('\r\n')[1]).toBe(
      `4,out of pool: 99 is not in 1..${POOL},"'=cmd|' /C calc'!A0,x,1,1,2,3,4,5,6,99,y"`,
    );
  });

  it('answers 400 for a malformed combo, a number outside the pool or a match type outside 3..7', async () => {
    for (const url of [
      '/api/winners/1-2-3/3/',
      '/api/winners/7-6-5-4-3-2-1/3/',
      '/api/winners/1-2-3-4-5-6-15/3/',
      '/api/winners/a-b-c-d-e-f-g/3/',
      '/api/winners/1-2-3-4-5-6-7/8/',
      '/api/winners/1-2-3-4-5-6-7/2/',
      '/api/download/1-2-3-4-5-6-99/4/',
      '/api/download/1-2-3-4-5-6-7/x/',
      '/api/download-all/1-1-2-3-4-5-6/',
      // one spelling per draw and match type: no leading zeros, no other number forms
      '/api/winners/01-2-3-4-5-6-7/3/',
      '/api/download-all/1-2-3-4-5-6-07/',
      '/api/winners/1-2-3-4-5-6-7/03/',
      '/api/download/1-2-3-4-5-6-7/3.0/',
      '/api/download/1-2-3-4-5-6-7/%203/',
    ]) {
      const res = await app.inject({ url: `${url}?session=${sessionA}`, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(400);
      expect(isEnvelope(res.json()), url).toBe(true);
    }
  });

  it('answers 400 naming an unknown key of the filter request instead of ignoring it', async () => {
    for (const [payload, key] of [
      [{ session: sessionA, filters: { evil: 1 } }, 'evil'],
      [{ session: sessionA, filters: { winners: { 9: { min: 1 } } } }, '9'],
      [{ session: sessionA, filters: { totalPayout: { min: 1, mx: 5 } } }, 'mx'],
      [{ session: sessionA, filter: { mustInclude: [1] } }, 'filter'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toContain(`"${key}"`);
    }
  });

  it('answers 404 for an unknown session and 409 before the analysis has finished', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: { session: '0190c0de-0000-7000-8000-000000000000' },
    });
    expect(res.statusCode).toBe(404);
    const nobody = await keys.sign({ sub: 'new-user' });
    const none = await app.inject({ url: '/api/power7/processing-status/', headers: auth(nobody) });
    expect(none.statusCode).toBe(404);
  });
});

describe('system endpoints', () => {
  it('answers live, ready, health, status and the OpenAPI reference', async () => {
    expect((await app.inject({ url: '/api/live/' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data.checks.map((c: { name: string }) => c.name)).toEqual([
      'storage',
      'database',
      'workers',
      'keys',
    ]);
    const health = await app.inject({ url: '/api/health/' });
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toMatchObject({ healthy: true, database: 'pglite' });
    const status = await app.inject({ url: '/api/status/' });
    expect(status.json().data).toMatchObject({
      service: 'power7-api',
      version: '0.1.0',
      jobs: { queued: 0, running: 0, concurrency: 2 },
    });
    expect(status.json().data.jobs.done).toBeGreaterThan(3);
    expect(status.json().data.jobs.failed).toBeGreaterThanOrEqual(5);
    const docs = await app.inject({ url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(['/api/upload/', '/api/filter/', '/api/winners/{combo}/{matchType}/']),
    );
  });

  it('allows CORS only for the configured origins', async () => {
    const allowed = await app.inject({
      method: 'OPTIONS',
      url: '/api/filter/',
      headers: {
        origin: 'http://127.0.0.1:8000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-csrftoken',
      },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:8000');
    expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/X-CSRFToken/i);
    const denied = await app.inject({
      method: 'OPTIONS',
      url: '/api/filter/',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reports key material that cannot be loaded as not ready', async () => {
    await rename(keys.file, `${keys.file}.away`);
    try {
      const ready = await app.inject({ url: '/api/ready/' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toMatch(/keys/);
    } finally {
      await rename(`${keys.file}.away`, keys.file);
    }
    expect((await app.inject({ url: '/api/ready/' })).statusCode).toBe(200);
  });
});

describe('clearing and expiry', () => {
  it('expires sessions with their files after SESSION_TTL_HOURS', async () => {
    const done = await uploadAndWait(tokenA, csvText);
    const folder = join(dir, 'data', 'power7', done._id);
    expect(existsSync(folder)).toBe(true);
    const orphan = join(dir, 'data', 'power7', 'orphan-folder');
    await mkdir(orphan);
    const deleted = await app.power7.sessions.sweep(new Date(Date.now() + 25 * 3_600_000));
    expect(deleted).toBeGreaterThan(0);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(orphan)).toBe(false);
    const status = await app.inject({
      url: `/api/power7/processing-status/?session=${done._id}`,
      headers: auth(tokenA),
    });
    expect(status.statusCode).toBe(404);
  });

  it("clear-all deletes only the caller's sessions, files and results", async () => {
    const userB = await keys.sign({ sub: 'user-b' });
    const a = await uploadAndWait(tokenA, csvText);
    const b = await uploadAndWait(userB, csvText);
    // a running job is cancelled too
    const running = (
      await upload(tokenA, customerCsv(20000, 20, 3), { ...DEFAULT_FIELDS, pool_size: '20' })
    ).json().data._id;
    const res = await app.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(tokenA),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.deleted).toBeGreaterThanOrEqual(2);
    for (const id of [a._id, running]) {
      expect(existsSync(join(dir, 'data', 'power7', id))).toBe(false);
    }
    const list = await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) });
    expect(list.json().data.total).toBe(0);
    const other = await app.inject({
      url: `/api/power7/processing-status/?session=${b._id}`,
      headers: auth(userB),
    });
    expect(other.json().data.status).toBe('done');
    expect(app.power7.queue.has(running)).toBe(false);
  });
});
