// Uploads: form and file checks, the job reading the file, its status and counts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isEnvelope } from '@pa/contracts/envelope';
import { power7Sessions } from '../src/db/schema';
import {
  customerCsv,
  DEFAULT_FIELDS,
  multipart,
  multipartFieldsLast,
  type UploadFields,
} from './helper';
import {
  app,
  auth,
  csvText,
  dir,
  finished,
  keys,
  POOL,
  sessionA,
  tickets,
  tokenA,
  upload,
  uploadAndWait,
  usePower7App,
} from './power7-fixture';

usePower7App();

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
    const body = multipartFieldsLast(
      { ...DEFAULT_FIELDS, pool_size: String(POOL) },
      { name: 'late.csv', content: csvText },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: body.payload,
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

describe('the file name', () => {
  it('is kept, shown and audited without bidi controls or zero-width characters', async () => {
    // "report‮vsc.exe" shows as "reportexe.csv"; the zero-width space and the isolate hide too
    const body = multipart(
      { ...DEFAULT_FIELDS, pool_size: String(POOL) },
      { name: 'report\u202Evsc.\u200Bexe\u2066.csv\u2069', content: csvText },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      payload: body.payload,
      headers: { ...body.headers, ...auth(tokenA) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data._id as string;
    expect(res.json().data.originalName).toBe('reportvsc.exe.csv');
    const done = await finished(tokenA, id);
    expect(done.originalName).toBe('reportvsc.exe.csv');
    const [row] = await app.power7.database.db
      .select()
      .from(power7Sessions)
      .where(eq(power7Sessions.id, id));
    expect(row!.originalName).toBe('reportvsc.exe.csv');
    const auditor = await keys.sign({ sub: 'auditor', perms: ['audit.read'] });
    const events = await app.inject({
      url: '/api/power7/audit-events/?pageSize=100',
      headers: auth(auditor),
    });
    const uploaded = (
      events.json().data.items as { action: string; sessionId: string; detail: object }[]
    ).find((event) => event.action === 'power7.upload' && event.sessionId === id);
    expect(uploaded?.detail).toMatchObject({ originalName: 'reportvsc.exe.csv' });
    expect(JSON.stringify(uploaded)).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
  });
});
