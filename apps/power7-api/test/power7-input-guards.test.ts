// Bad input is a clear 400 in the envelope that changes nothing: control characters anywhere, a
// malformed multipart body, unknown, duplicated or too many form fields.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELDS, multipart } from './helper';
import { app, auth, csvText, dir, POOL, tokenA, upload, usePower7App } from './power7-fixture';

usePower7App();

const storage = () => readdir(join(dir, 'data', 'power7'));
const sessionCount = async () =>
  (await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) })).json().data
    .total as number;
const form = () => ({ ...DEFAULT_FIELDS, pool_size: String(POOL) });

/** Sends a raw upload body; expects 400 VALIDATION_ERROR and no new folder or session. */
async function refused(payload: Buffer, contentType: string, field?: string) {
  const before = { folders: await storage(), sessions: await sessionCount() };
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload,
    headers: { 'content-type': contentType, ...auth(tokenA) },
  });
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', status: 400 });
  if (field) expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  expect(await storage()).toEqual(before.folders);
  expect(await sessionCount()).toBe(before.sessions);
  return body as { message: string; errors: { field: string; message: string }[] };
}

describe('control characters', () => {
  it('answers 400 naming the field for a query, a path parameter and a JSON body', async () => {
    const status = await app.inject({
      url: '/api/power7/processing-status/?session=%00',
      headers: auth(tokenA),
    });
    expect(status.statusCode, status.body).toBe(400);
    expect(status.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'session' }],
    });

    const report = await app.inject({
      url: '/api/power7/sessions/a%07b/rejected.csv',
      headers: auth(tokenA),
    });
    expect(report.statusCode, report.body).toBe(400);
    expect(report.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'id' }] });

    const filter = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      payload: { session: 'a\u0000' },
      headers: auth(tokenA),
    });
    expect(filter.statusCode, filter.body).toBe(400);
    expect(filter.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'session' }],
    });
  });

  it('refuses a file name or a form field holding one, and keeps nothing on disk', async () => {
    const name = multipart(form(), { name: 'cust\u0000omers.csv', content: csvText });
    await refused(name.payload, name.headers['content-type'], 'customer_file');
    const field = multipart(
      { ...form(), budget: '600\u001b00' },
      { name: 'c.csv', content: csvText },
    );
    await refused(field.payload, field.headers['content-type'], 'budget');
  });
});

describe('the multipart body', () => {
  const whole = () => multipart(form(), { name: 'customers.csv', content: csvText });

  it('answers 400 to a body cut in its last 20 bytes, inside a part header, or with another boundary', async () => {
    const cut = whole();
    await refused(cut.payload.subarray(0, cut.payload.length - 20), cut.headers['content-type']);

    const header = whole();
    const at = header.payload.indexOf('filename=') + 4;
    await refused(header.payload.subarray(0, at), header.headers['content-type']);

    const other = whole();
    await refused(other.payload, 'multipart/form-data; boundary=----not-the-one-in-the-body');
  });

  it('names an unknown field, a duplicated field and too many fields', async () => {
    const unknown = multipart(
      { ...form(), pool_size: undefined, poolSize: '49' },
      { name: 'c.csv', content: csvText },
    );
    const u = await refused(unknown.payload, unknown.headers['content-type'], 'poolSize');
    expect(u.message).toMatch(/poolSize/);

    // the same field twice: the second would otherwise silently win
    const once = multipart(form(), { name: 'c.csv', content: csvText });
    const boundary = once.headers['content-type'].split('boundary=')[1]!;
    const twice = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="pool_size"\r\n\r\n20\r\n`,
      ),
      once.payload,
    ]);
    const d = await refused(twice, once.headers['content-type'], 'pool_size');
    expect(d.message).toMatch(/twice/);

    const many: Record<string, string> = {};
    for (let i = 0; i < 25; i++) many[`field_${i}`] = 'x';
    const crowded = multipart({ ...form(), ...many }, { name: 'c.csv', content: csvText });
    // more fields than the form has: the first one it does not take is named (before any limit)
    const c = await refused(crowded.payload, crowded.headers['content-type'], 'field_0');
    expect(c.message).toMatch(/Unknown form field "field_0"/);
  });

  it('still accepts the full form', async () => {
    const res = await upload(tokenA, csvText);
    expect(res.statusCode, res.body).toBe(202);
  });
});
