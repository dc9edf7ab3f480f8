import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import {
  ingestFile,
  openSession,
  readSessionStatus,
  readUpload,
  runAnalysis,
  type Progress,
} from '../src/store/session-store';
import { writeWorkbook } from '../src/testing/xlsx-zip';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-session-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('session store', () => {
  it('ingests an XLSX upload, analyses it with progress, and serves winners with original columns', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['Customer', 'Phone', 'Ticket', 'Segment']);
    ws.addRow(['A1', '555', '1 2 3 4 5 6 7', 'gold, "vip"']);
    ws.addRow(['A2', '556', '1-2-3-4-5-6-8', 'silver']);
    ws.addRow(['A3', '557', '1;2;3;4;5;6', 'bronze']);
    ws.addRow(['A4', '558', '2 3 4 5 6 9 10', 'none']);
    const src = join(dir, 'upload.xlsx');
    await writeWorkbook(wb, src);
    const sessionDir = join(dir, 's1');
    const ingest = await ingestFile({ sourcePath: src, sessionDir, pool: 10 });
    expect(ingest).toMatchObject({
      format: 'xlsx',
      accepted: 3,
      rejected: 1,
      idColumn: 'Customer',
    });
    expect(ingest.rejectedSample[0]).toMatchObject({
      line: 4,
      reason: expect.stringMatching(/^wrong count/),
    });
    expect((await readSessionStatus(sessionDir)).state).toBe('ingested');
    await expect(openSession(sessionDir)).rejects.toMatchObject({ code: 'SESSION_NOT_READY' });

    const seen: Progress[] = [];
    const summary = await runAnalysis({
      sessionDir,
      payouts: { 3: 0, 4: 0.5, 5: 1.25, 6: 10, 7: 100 },
      budget: { type: 'range', min: 0, max: 1e6 },
      workers: 2,
      onProgress: (p) => seen.push(p),
    });
    expect(summary.qualified).toBe(120);
    expect(seen.map((p) => p.phase)).toEqual(
      expect.arrayContaining(['building', 'scanning', 'writing', 'done']),
    );
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]!.fraction).toBeGreaterThanOrEqual(seen[i - 1]!.fraction);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', fraction: 1 });

    const s = await openSession(sessionDir);
    const top = s.filter({ pageSize: 1 });
    expect(top.items[0]).toMatchObject({
      combo: '1-2-3-4-5-6-7',
      totalPayout: 111.25, // A1: 7 → 100, A2: 6 → 10, A4: 5 → 1.25
    });
    const w = await s.winners('1-2-3-4-5-6-7', 7);
    expect(w.items).toHaveLength(1);
    expect(w.items[0]).toMatchObject({ line: 2, customerId: 'A1', phone: '555', payout: 100 });
    expect(w.items[0]!.columns).toEqual({
      Customer: 'A1',
      Phone: '555',
      Ticket: '1 2 3 4 5 6 7',
      Segment: 'gold, "vip"',
    });
    const chunks: string[] = [];
    for await (const c of s.winnersCsv('1-2-3-4-5-6-7', 'all')) chunks.push(c);
    expect(chunks.join('').split('\r\n').slice(0, 4)).toEqual([
      'Customer,Phone,Ticket,Segment,match_type,matched_numbers,payout',
      'A1,555,1 2 3 4 5 6 7,"gold, ""vip""",7,1 2 3 4 5 6 7,100',
      'A2,556,1-2-3-4-5-6-8,silver,6,1 2 3 4 5 6,10',
      'A4,558,2 3 4 5 6 9 10,none,5,2 3 4 5 6,1.25',
    ]);
    s.close();
    await expect(ingestFile({ sourcePath: src, sessionDir, pool: 10 })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  }, 30_000);

  it('analyses a read upload while its session files are written: the same folder and results as ingest, then analysis', async () => {
    const lines = ['id,n1,n2,n3,n4,n5,n6,n7'];
    for (let i = 0; i < 300; i++) {
      const n = [1, 2, 3, 4, 5, 6, 7].map((k) => ((i * 7 + k * 5) % 15) + 1);
      const numbers = [...new Set(n)].length === 7 ? n : [1, 2, 3, 4, 5, 6, 8 + (i % 8)];
      lines.push(`C${i},${numbers.join(',')}`);
    }
    lines.push('bad,1,2,3'); // one rejected row
    const text = lines.join('\n') + '\n';
    const params = {
      payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
      budget: { type: 'range', min: 0, max: 1e9 },
      workers: 2,
    } as const;
    const [twoSteps, oneByOne] = [join(dir, 'overlap'), join(dir, 'sequential')];
    for (const d of [twoSteps, oneByOne]) {
      await rm(d, { recursive: true, force: true });
      await writeFile(`${d}.csv`, text);
    }

    const ingested = await readUpload({
      sourcePath: `${twoSteps}.csv`,
      sessionDir: twoSteps,
      pool: 15,
      moveSource: true,
    });
    expect(ingested.summary).toMatchObject({ accepted: 300, rejected: 1 });
    expect(ingested.tickets.length).toBe(300 * 7);
    const overlapped = await runAnalysis({ sessionDir: twoSteps, ingested, ...params });

    await ingestFile({
      sourcePath: `${oneByOne}.csv`,
      sessionDir: oneByOne,
      pool: 15,
      moveSource: true,
    });
    const sequential = await runAnalysis({ sessionDir: oneByOne, ...params });

    const { finishedAt: _a, timings: _b, ...a } = overlapped;
    const { finishedAt: _c, timings: _d, ...b } = sequential;
    expect(a).toEqual(b);
    expect((await readdir(twoSteps)).sort()).toEqual((await readdir(oneByOne)).sort());
    for (const name of [
      'tickets.bin',
      'rows.idx',
      'rows.csv',
      'rejected-rows.csv',
      'qualifying.bin',
    ]) {
      expect(await readFile(join(twoSteps, name)), name).toEqual(
        await readFile(join(oneByOne, name)),
      );
    }
    const s = await openSession(twoSteps);
    expect(s.filter({ pageSize: 3 }).items).toEqual(
      (await openSession(oneByOne)).filter({ pageSize: 3 }).items,
    );
  }, 30_000);

  it('takes the count tables from counts.bin when they fit the tickets and pool, else counts them again', async () => {
    const lines = ['id,n1,n2,n3,n4,n5,n6,n7'];
    for (let i = 0; i < 400; i++) {
      const n = [1, 2, 3, 4, 5, 6, 7].map((k) => ((i * 11 + k * 3) % 16) + 1);
      lines.push(`C${i},${([...new Set(n)].length === 7 ? n : [1, 2, 3, 4, 5, 9, 16]).join(',')}`);
    }
    const sessionDir = join(dir, 'counts');
    await writeFile(`${sessionDir}.csv`, lines.join('\n') + '\n');
    await ingestFile({ sourcePath: `${sessionDir}.csv`, sessionDir, pool: 16 });
    const budget = { type: 'range', min: 10, max: 1e9 } as const;
    const first = await runAnalysis({
      sessionDir,
      payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
      budget,
      workers: 2,
    });
    expect(first.timings.countsReused).toBe(false);
    const stored = await readFile(join(sessionDir, 'counts.bin'));
    // other payouts over the same tickets: the stored tables, the results of a fresh analysis
    const payouts = { 3: 2, 4: 7, 5: 40, 6: 900, 7: 2000 };
    const results = async () => {
      const s = await openSession(sessionDir);
      const answer = { stats: s.analysis.stats, draws: s.filter({ pageSize: 500 }).items };
      s.close();
      return answer;
    };
    const again = await runAnalysis({ sessionDir, payouts, budget, workers: 2 });
    expect(again.timings.countsReused).toBe(true);
    const reused = await results();
    const tickets = new Uint8Array(await readFile(join(sessionDir, 'tickets.bin')));
    const direct = await analyzeTickets(tickets, tickets.length / 7, { pool: 16, payouts, budget });
    expect(again.qualified).toBe(direct.qualified);
    expect(again.stats.max).toBe(direct.stats.max);
    // a file of other tickets (here: cut short) is not taken; the tables are counted and stored again
    await writeFile(join(sessionDir, 'counts.bin'), stored.subarray(0, stored.length - 4));
    const counted = await runAnalysis({ sessionDir, payouts, budget, workers: 2 });
    expect(counted.timings.countsReused).toBe(false);
    expect(await results()).toEqual(reused);
    expect(await readFile(join(sessionDir, 'counts.bin'))).toEqual(stored);
  }, 30_000);

  it('fails an analysis whose session files could not be written, and writes no analysis.json', async () => {
    const sessionDir = join(dir, 'save-fails');
    const src = `${sessionDir}.csv`;
    await writeFile(src, 'id,n1,n2,n3,n4,n5,n6,n7\nA,1,2,3,4,5,6,7\nB,2,3,4,5,6,7,8\n');
    const read = await readUpload({ sourcePath: src, sessionDir, pool: 10 });
    await read.saved;
    await rm(join(sessionDir, 'ingest.json'));
    // the edge this isolates: a disk that refused the session files after the read
    const saved = Promise.reject(new Error('disk full'));
    saved.catch(() => {}); // as readUpload does: awaited later, not unhandled meanwhile
    const ingested = { ...read, saved };
    await expect(
      runAnalysis({
        sessionDir,
        ingested,
        payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
        budget: { type: 'fixed', budget: 1e6 },
        workers: 1,
      }),
    ).rejects.toThrow('disk full');
    expect((await readSessionStatus(sessionDir)).state).toBe('missing');
    expect(await readdir(sessionDir)).not.toContain('analysis.json');
  }, 30_000);

  it.each([1, 2])(
    'cancels an analysis through its AbortSignal (%i workers)',
    async (workers) => {
      const tickets = new Uint8Array(7 * 1000);
      for (let i = 0; i < 1000; i++) tickets.set([1, 2, 3, 4, 5, 6, 7 + (i % 20)], i * 7);
      const opts = {
        pool: 30,
        payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
        budget: { type: 'fixed', budget: 0 },
        workers,
      } as const;
      const ac = new AbortController();
      const run = analyzeTickets(tickets, 1000, {
        ...opts,
        signal: ac.signal,
        onProgress: (p) => {
          if (p.phase === 'scanning') ac.abort();
        },
      });
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
      await expect(
        analyzeTickets(tickets, 1000, { ...opts, signal: ac.signal }),
      ).rejects.toMatchObject({
        code: 'CANCELLED',
      });
    },
    30_000,
  );

  it('validates payouts and budgets with the field at fault', async () => {
    const t = new Uint8Array([1, 2, 3, 4, 5, 6, 7]);
    const base = { pool: 10, workers: 1 } as const;
    await expect(
      analyzeTickets(t, 1, {
        ...base,
        payouts: { 3: 1.234, 4: 0, 5: 0, 6: 0, 7: 0 },
        budget: { type: 'fixed', budget: 1 },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'payout_3' });
    await expect(
      analyzeTickets(t, 1, {
        ...base,
        payouts: { 3: 1, 4: 0, 5: 0, 6: 0, 7: 0 },
        budget: { type: 'range', min: 5, max: 1 },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'budget_min' });
  });
});
