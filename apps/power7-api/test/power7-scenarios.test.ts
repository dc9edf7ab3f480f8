// Issue #25: scenarios without re-upload (rerun), sessions an analyst can keep track of (name, note,
// currency, delete, the list's columns), the draws export and CSV downloads that open cleanly.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildTestApp, cleanup, customerCsv, DEFAULT_FIELDS, multipart, tempDir } from './helper';
import {
  analysisRun,
  app,
  auth,
  csvText,
  finished,
  keys,
  POOL,
  sessionA,
  tokenA,
  upload,
  uploadAndWait,
  usePower7App,
} from './power7-fixture';

usePower7App();

const FIELDS = { ...DEFAULT_FIELDS, pool_size: String(POOL) };
const OTHER = { ...FIELDS, budget: '900', payout_5: '75', payout_7: '8000', currency: 'eur' };

const rerun = (id: string, payload: object, token = tokenA) =>
  app.inject({
    method: 'POST',
    url: `/api/power7/sessions/${id}/rerun/`,
    headers: auth(token),
    payload,
  });

async function rerunAndWait(id: string, payload: object) {
  const res = await rerun(id, payload);
  expect(res.statusCode, res.body).toBe(202);
  return finished(tokenA, res.json().data._id);
}

const post = (url: string, payload: object, token = tokenA) =>
  app.inject({ method: 'POST', url, headers: auth(token), payload });

/** What the results screens ask of a session: the insight at a few budgets, the first page of draws. */
async function answers(session: string) {
  const insight = await post('/api/insight/', { session, budgets: [0, 500, 900, 60_000] });
  const filter = await post('/api/filter/', {
    session,
    filters: { totalPayout: { min: 1 } },
    sort: 'totalPayout:desc',
    pageSize: 50,
  });
  expect(insight.statusCode, insight.body).toBe(200);
  expect(filter.statusCode, filter.body).toBe(200);
  return { insight: insight.json().data, filter: filter.json().data };
}

describe('a rerun of a session with other parameters', () => {
  it('reads no file over the same pool and answers as a fresh upload of the file does', async () => {
    const done = await rerunAndWait(sessionA, OTHER);
    // a job that reads a file says how long it took; this one read none
    expect(done.timings.readMs).toBeUndefined();
    expect(done).toMatchObject({
      status: 'done',
      sourceSessionId: sessionA,
      originalName: 'customers.csv',
      params: { budget: 900, payouts: { 5: 75, 7: 8000 }, currency: 'EUR', pool_size: POOL },
      counts: { accepted: 3000, rejected: 2 },
      rejectedReasons: { 'number out of range': 1, 'duplicate number': 1 },
    });
    expect(done.rejectedSample).toHaveLength(2);
    const fresh = await uploadAndWait(tokenA, csvText, OTHER);
    expect(fresh.timings.readMs).toEqual(expect.any(Number));
    expect(await answers(done._id)).toEqual(await answers(fresh._id));
    // the rerun's rejected rows are the source's
    const rejected = await app.inject({
      url: `/api/power7/sessions/${done._id}/rejected.csv`,
      headers: auth(tokenA),
    });
    expect(rejected.body).toContain('duplicate');
  });

  it('reads the stored rows again with another pool, as an upload with that pool', async () => {
    const wider = { ...OTHER, pool_size: 20, budget: 1200, payout_3: 2 };
    const done = await rerunAndWait(sessionA, wider);
    expect(done.timings.readMs).toEqual(expect.any(Number));
    expect(done).toMatchObject({ status: 'done', params: { pool_size: 20, budget: 1200 } });
    const fresh = await uploadAndWait(
      tokenA,
      csvText,
      Object.fromEntries(Object.entries(wider).map(([k, v]) => [k, String(v)])),
    );
    expect(done.counts).toEqual(fresh.counts);
    expect(await answers(done._id)).toEqual(await answers(fresh._id));
    // a rerun of a rerun names the upload the tickets came from
    const again = await rerunAndWait(done._id, FIELDS);
    expect(again.sourceSessionId).toBe(sessionA);
  });

  it("is a 404 for another user's session, a 400 naming a bad field, a 409 without read tickets", async () => {
    const other = await keys.sign({ sub: 'user-b' });
    const foreign = await rerun(sessionA, FIELDS, other);
    expect(foreign.statusCode).toBe(404);
    const unknown = await rerun('no-such-session', FIELDS);
    expect(unknown.statusCode).toBe(404);

    const before = (await readdir(app.power7.sessions.memory.root)).length;
    for (const [field, payload] of [
      ['payout_3', { ...FIELDS, payout_3: '-1' }],
      ['budget', { ...FIELDS, budget: 'lots' }],
      ['pool_size', { ...FIELDS, pool_size: 60 }],
      ['currency', { ...FIELDS, currency: 'XYZ' }],
      ['customer_file', { ...FIELDS, customer_file: 'x' }],
    ] as const) {
      const res = await rerun(sessionA, payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors[0].field, res.body).toBe(field);
    }
    expect((await readdir(app.power7.sessions.memory.root)).length).toBe(before);

    const empty = await uploadAndWait(tokenA, 'n1,n2,n3,n4,n5,n6,n7\n1,1,1,1,1,1,1\n', FIELDS);
    expect(empty.status).toBe('failed');
    expect(empty.rejectedReasons).toEqual({ 'duplicate number': 1 });
    const conflict = await rerun(empty._id, FIELDS);
    expect(conflict.statusCode).toBe(409);
  });
});

/** What a finished session stored: its result files' digests and `analysis.json` but its timings. */
async function storedResults(id: string) {
  const dir = app.power7.sessions.memory.dirOf(id);
  const names = ['qualifying.bin', 'distribution.bin', 'distribution-index.bin', 'counts.bin'];
  const files: Record<string, string> = {};
  for (const name of names) {
    files[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  }
  const stored = JSON.parse(await readFile(join(dir, 'analysis.json'), 'utf8'));
  const { timings, finishedAt, ...analysis } = stored;
  expect(timings.buildMs).toBeGreaterThanOrEqual(0);
  expect(Date.parse(finishedAt)).toBeGreaterThan(0);
  return { files, analysis };
}

/** The winners of a session's worst draw, every match type. */
async function worstDrawWinners(session: string) {
  const insight = await post('/api/insight/', { session, budgets: [0] });
  const combo = insight.json().data.worst.combo;
  const pages = [];
  for (const m of [3, 4, 5, 6, 7]) {
    const res = await app.inject({
      url: `/api/winners/${combo}/${m}/?session=${session}&pageSize=100`,
      headers: auth(tokenA),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { session: _session, ...page } = res.json().data;
    pages.push(page);
  }
  return { combo, pages };
}

const inode = async (id: string) =>
  (await stat(join(app.power7.sessions.memory.dirOf(id), 'counts.bin'))).ino;

describe('a rerun over the same tickets and pool', () => {
  it("takes its source's count tables (linked, so deleting the source changes nothing) and stores what a fresh upload stores, byte for byte", async () => {
    const source = await uploadAndWait(tokenA, csvText, FIELDS);
    const res = await rerun(source._id, OTHER);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data._id;
    expect(await inode(id)).toBe(await inode(source._id));
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/power7/sessions/${source._id}/`,
      headers: auth(tokenA),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await finished(tokenA, id)).status).toBe('done');
    expect((await analysisRun(id)).countsReused).toBe(true);

    const fresh = await uploadAndWait(tokenA, csvText, OTHER);
    expect((await analysisRun(fresh._id)).countsReused).toBe(false);
    expect(await storedResults(id)).toEqual(await storedResults(fresh._id));
    expect(await answers(id)).toEqual(await answers(fresh._id));
    expect(await worstDrawWinners(id)).toEqual(await worstDrawWinners(fresh._id));
    // and a rerun of the rerun takes them from it
    const again = await rerunAndWait(id, FIELDS);
    expect((await analysisRun(again._id)).countsReused).toBe(true);
    expect(await storedResults(again._id)).toEqual(await storedResults(sessionA));
  });

  it('counts the tables afresh when the pool changes, as an upload with that pool', async () => {
    const wider = { ...OTHER, pool_size: 18, payout_4: 7 };
    const done = await rerunAndWait(sessionA, wider);
    expect((await analysisRun(done._id)).countsReused).toBe(false);
    expect(await inode(done._id)).not.toBe(await inode(sessionA));
    const fresh = await uploadAndWait(
      tokenA,
      csvText,
      Object.fromEntries(Object.entries(wider).map(([k, v]) => [k, String(v)])),
    );
    expect(await storedResults(done._id)).toEqual(await storedResults(fresh._id));
    expect(await worstDrawWinners(done._id)).toEqual(await worstDrawWinners(fresh._id));
  });
});

describe('the storage quota', () => {
  it('counts the stored tickets a rerun takes (413, nothing kept)', async () => {
    const smallDir = await tempDir();
    const small = await buildTestApp({
      DATA_DIR: join(smallDir, 'data'),
      JWKS_FILE: keys.file,
      // the upload reserves ~2.1 MB (its results at their largest, ADR 019) and its finished session
      // takes ~1.7 MB (the insight's index 1.5 MB): a rerun's reservation does not fit beside it
      STORAGE_QUOTA_MB: '2.5',
    });
    try {
      const body = multipart(FIELDS, { name: 'c.csv', content: csvText });
      const up = await small.inject({
        method: 'POST',
        url: '/api/upload/',
        payload: body.payload,
        headers: { ...body.headers, ...auth(tokenA) },
      });
      expect(up.statusCode, up.body).toBe(202);
      const id = up.json().data._id;
      expect((await finished(tokenA, id, small)).status).toBe('done');
      const root = small.power7.sessions.memory.root;
      const before = await readdir(root);
      const res = await small.inject({
        method: 'POST',
        url: `/api/power7/sessions/${id}/rerun/`,
        headers: auth(tokenA),
        payload: OTHER,
      });
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json().message).toMatch(/storage quota of 2.5 MB/);
      expect(await readdir(root)).toEqual(before);
    } finally {
      await small.close();
      await cleanup(smallDir);
    }
  });
});

describe('a run where most rows are rejected', () => {
  it('counts the rejected rows by kind of reason in the status (issue #25)', async () => {
    const bad = [
      ...Array.from({ length: 60 }, (_, i) => `B${i},x,1,1,2,3,4,5,6,${POOL + 1},n`),
      ...Array.from({ length: 25 }, (_, i) => `D${i},Doe, John,1,1,2,3,4,5,6,7,n`),
      ...Array.from({ length: 5 }, (_, i) => `N${i},x,1,1,2,3,4,5,6,seven,n`),
    ];
    const done = await uploadAndWait(tokenA, customerCsv(10, POOL, 5, bad));
    expect(done).toMatchObject({ status: 'done', counts: { accepted: 10, rejected: 90 } });
    expect(done.rejectedReasons).toEqual({
      'number out of range': 60,
      'wrong field count': 25,
      'not a number': 5,
    });
  });
});

describe('keeping track of sessions', () => {
  it('names and notes a session, shown in the list with its parameters and expiry', async () => {
    const patch = (payload: object, token = tokenA) =>
      app.inject({
        method: 'PATCH',
        url: `/api/power7/sessions/${sessionA}/`,
        headers: auth(token),
        payload,
      });
    const saved = await patch({ name: '  Week 46 ', note: 'Jackpot raised\nafter review' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      name: 'Week 46',
      note: 'Jackpot raised\nafter review',
    });
    expect((await patch({ name: 'bad\u0007name' })).json().errors[0].field).toBe('name');
    expect((await patch({ note: 'x'.repeat(2001) })).json().errors[0].field).toBe('note');
    expect((await patch({})).statusCode).toBe(400);
    expect((await patch({ name: 'theirs' }, await keys.sign({ sub: 'user-b' }))).statusCode).toBe(
      404,
    );

    const list = await app.inject({
      url: '/api/power7/sessions/?pageSize=100',
      headers: auth(tokenA),
    });
    const mine = list.json().data.items.find((s: { _id: string }) => s._id === sessionA);
    expect(mine).toMatchObject({
      name: 'Week 46',
      note: 'Jackpot raised\nafter review',
      sourceSessionId: null,
      params: { pool_size: POOL, budget: 60000, payouts: { 3: 1 } },
    });
    const ttl = Date.parse(mine.expiresAt) - Date.parse(mine.createdAt);
    expect(ttl).toBe(24 * 3_600_000);
    // clearing the name
    expect((await patch({ name: '' })).json().data.name).toBeNull();
  });

  it('takes a currency at upload, in capitals, and refuses an unknown code naming the field', async () => {
    const done = await uploadAndWait(tokenA, csvText, { ...FIELDS, currency: 'gbp' });
    expect(done.params.currency).toBe('GBP');
    const bad = await upload(tokenA, csvText, { ...FIELDS, currency: 'POUNDS' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('currency');
  });

  it('deletes one session with its folder (cancelling its job), audited, the owner only', async () => {
    const started = await upload(tokenA, customerCsv(20_000, POOL, 3));
    const id = started.json().data._id;
    const del = (token = tokenA) =>
      app.inject({ method: 'DELETE', url: `/api/power7/sessions/${id}/`, headers: auth(token) });
    expect((await del(await keys.sign({ sub: 'user-b' }))).statusCode).toBe(404);
    const res = await del();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ deleted: 1 });
    await expect(stat(app.power7.sessions.memory.dirOf(id))).rejects.toThrow();
    const status = await app.inject({
      url: `/api/power7/processing-status/?session=${id}`,
      headers: auth(tokenA),
    });
    expect(status.statusCode).toBe(404);
    expect((await del()).statusCode).toBe(404);
    const auditor = await keys.sign({ sub: 'auditor', perms: ['audit.read'] });
    const events = await app.inject({
      url: '/api/power7/audit-events/?pageSize=100',
      headers: auth(auditor),
    });
    const actions = events.json().data.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['power7.session.delete', 'power7.rerun', 'power7.session.edit']),
    );
  });
});

describe('downloads', () => {
  it('exports every draw the filters match as CSV, with the row count, in constant memory', async () => {
    const body = {
      session: sessionA,
      filters: { totalPayout: { min: 100 } },
      page: 3,
      pageSize: 5,
    };
    const page = await post('/api/filter/', body);
    const total = page.json().data.total;
    expect(total).toBeGreaterThan(0);
    const res = await post('/api/filter/export/', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-rows']).toBe(String(total));
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="power7-${sessionA}-draws.csv"`,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('combo,winners_3,winners_4,winners_5,winners_6,winners_7,total_payout');
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).every((line) => Number(line.split(',')[6]) >= 100)).toBe(true);

    const bad = await post('/api/filter/export/', {
      session: sessionA,
      filters: { mustInclude: [99] },
    });
    expect(bad.statusCode).toBe(400);
    const other = await post('/api/filter/export/', body, await keys.sign({ sub: 'user-b' }));
    expect(other.statusCode).toBe(404);
  });

  it('starts every CSV download with a BOM and writes matched numbers no spreadsheet takes for a date', async () => {
    const draws = await post('/api/filter/', { session: sessionA, pageSize: 1 });
    const combo = draws.json().data.items[0].combo;
    for (const url of [
      `/api/download/${combo}/3/?session=${sessionA}`,
      `/api/download-all/${combo}/?session=${sessionA}`,
      `/api/power7/sessions/${sessionA}/rejected.csv`,
    ]) {
      const res = await app.inject({ url, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(200);
      expect(res.body.startsWith('\uFEFF'), url).toBe(true);
    }
    const three = await app.inject({
      url: `/api/download/${combo}/3/?session=${sessionA}`,
      headers: auth(tokenA),
    });
    const [header, first] = three.body.split('\r\n');
    const column = header!.split(',').indexOf('matched_numbers');
    expect(first!.split(',')[column]).toMatch(/^\d+ \d+ \d+$/);
  });
});
