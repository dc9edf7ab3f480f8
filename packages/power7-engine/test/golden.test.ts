import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ingestFile,
  openSession,
  readSessionStatus,
  rejectedRowsCsvPath,
  runAnalysis,
  type AnalysisSummary,
  type IngestSummary,
  type MatchType,
  type OpenSession,
} from '../src/store/session-store';

/** A session's winners CSV written into `out` with back-pressure, then ended (as the service streams it). */
async function writeWinnersCsv(
  session: OpenSession,
  combo: string,
  matchType: MatchType | 'all',
  out: Writable,
): Promise<void> {
  for await (const chunk of session.winnersCsv(combo, matchType)) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
}

// Hand-checked: with pool 8 every draw leaves out one number y and every ticket one number x;
// a ticket matches 7 when x = y, else 6. Valid tickets leave out 8 (Ann, Dee), 7 (Bob), 1 (Cy, Kim),
// 2 (Jo). Payouts 6 → 10, 7 → 100, so the totals by y are 240,150,60,60,60,60,150,240.
const FIXTURE = join(import.meta.dirname, 'fixtures', 'golden-pool8.csv');
const payouts = { 3: 1, 4: 2, 5: 3, 6: 10, 7: 100 };

describe('golden file (pool 8)', () => {
  let dir: string;
  let ingest: IngestSummary;
  let analysis: AnalysisSummary;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'p7-golden-'));
    ingest = await ingestFile({
      sourcePath: FIXTURE,
      sessionDir: dir,
      pool: 8,
      originalName: 'g.csv',
    });
    analysis = await runAnalysis({
      sessionDir: dir,
      payouts,
      budget: { type: 'fixed', budget: 150 },
      workers: 1,
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the rows, with line numbers and reasons', async () => {
    expect(ingest).toMatchObject({
      pool: 8,
      format: 'csv',
      delimiter: ';',
      rowsRead: 11,
      accepted: 6,
      rejected: 5,
      numberColumns: { kind: 'single', name: 'Numbers' },
      idColumn: 'Customer ID',
      nameColumn: 'Name',
      phoneColumn: 'Phone',
      columns: ['Customer ID', 'Name', 'Phone', 'Numbers', 'Note'],
    });
    expect(ingest.rejectedSample.map((r) => [r.line, r.reason.split(':')[0]])).toEqual([
      [6, 'wrong count'],
      [7, 'out of pool'],
      [8, 'duplicate'],
      [9, '"a" is not an integer'],
      [10, 'empty'],
    ]);
    const csv = await readFile(rejectedRowsCsvPath(dir), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('line,reason,raw');
    expect(csv).toContain('7,out of pool: 9 is not in 1..8,6;Fay;555-6;1 2 3 4 5 6 9;');
  });

  it('computes every draw exactly', async () => {
    expect(analysis.draws).toBe(8);
    expect(analysis.qualified).toBe(6);
    expect(analysis.stats.min).toBe(60);
    expect(analysis.stats.max).toBe(240);
    expect(analysis.stats.mean).toBe(127.5);
    expect(analysis.stats.worstDraw).toEqual({
      combo: '1-2-3-4-5-6-7',
      numbers: [1, 2, 3, 4, 5, 6, 7],
      winners: { 3: 0, 4: 0, 5: 0, 6: 4, 7: 2 },
      totalPayout: 240,
    });
    expect(analysis.stats.histogram.counts.reduce((a, b) => a + b, 0)).toBe(8);
    // the best qualifying draws: the first page by total payout (ties by combo), as the web app asks
    const session = await openSession(dir);
    const top = session.filter({ pageSize: 20 }).items;
    session.close();
    expect(top.map((d) => [d.combo, d.totalPayout])).toEqual([
      ['1-2-3-4-5-6-8', 150],
      ['1-3-4-5-6-7-8', 150],
      ['1-2-3-4-5-7-8', 60],
      ['1-2-3-4-6-7-8', 60],
      ['1-2-3-5-6-7-8', 60],
      ['1-2-4-5-6-7-8', 60],
    ]);
    expect(top[0]!.winners).toEqual({ 3: 0, 4: 0, 5: 0, 6: 5, 7: 1 });
  });

  it('reopens the session and answers queries', async () => {
    expect((await readSessionStatus(dir)).state).toBe('analysed');
    const s = await openSession(dir);
    const f = s.filter({ sort: { by: 'combo', direction: 'asc' }, pageSize: 2, page: 2 });
    expect(f).toMatchObject({ total: 6, qualified: 6, page: 2, totalPages: 3 });
    expect(f.items.map((d) => d.combo)).toEqual(['1-2-3-4-6-7-8', '1-2-3-5-6-7-8']);
    expect(s.filter({ mustInclude: [8], mustExclude: [2] }).items.map((d) => d.combo)).toEqual([
      '1-3-4-5-6-7-8',
    ]);
    expect(s.filter({ winners: { 7: { min: 1 } } }).total).toBe(2);
    expect(s.filter({ totalPayout: { max: 60 } }).total).toBe(4);

    const w = await s.winners('1-2-3-4-5-6-7', 7);
    expect(w.total).toBe(2);
    expect(w.items.map((i) => [i.line, i.name, i.customerId, i.phone, i.payout])).toEqual([
      [2, 'Ann', '1', '555-1', 100],
      [5, 'Dee', '4', '555-4', 100],
    ]);
    expect(w.items[0]!.columns.Note).toBe('likes "seven"');
    expect(w.items[0]!.matched).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const w6 = await s.winners('1-2-3-4-5-6-7', 6);
    expect(w6.items.map((i) => [i.line, i.matched.join('-')])).toEqual([
      [3, '1-2-3-4-5-6'],
      [4, '2-3-4-5-6-7'],
      [11, '1-3-4-5-6-7'],
      [13, '2-3-4-5-6-7'],
    ]);
    expect(w6.items[2]!.columns.Note).toBe('two\r\nlines');
    await expect(s.winners('1-2-3-4-5-6-9', 7)).rejects.toMatchObject({ code: 'INVALID_COMBO' });

    let text = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        text += String(chunk);
        cb();
      },
    });
    await writeWinnersCsv(s, '1-2-3-4-5-6-7', 'all', sink);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Customer ID,Name,Phone,Numbers,Note,match_type,matched_numbers,payout');
    expect(lines[1]).toBe('1,Ann,555-1,1 2 3 4 5 6 7,"likes ""seven""",7,1 2 3 4 5 6 7,100');
    expect(lines.length).toBe(1 + 6 + 1); // header, 6 winners, one of them spans two lines
    s.close();
  });
});
