import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-ingest-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const POOL = 12;
function csv(rows: number): string {
  const lines = ['id,name,n1,n2,n3,n4,n5,n6,n7'];
  for (let i = 0; i < rows; i++) {
    const base = i % (POOL - 6);
    const t = [1, 2, 3, 4, 5, 6, 7].map((k) => base + k);
    if (i % 13 === 5) t[0] = 40; // out of pool: rejected
    lines.push(`C${i},"Name, ${i}",${t.join(',')}`);
  }
  return lines.join('\r\n') + '\r\n';
}

const analyse = (sessionDir: string) =>
  runAnalysis({
    sessionDir,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    budget: { type: 'range', min: 0, max: 1e9 },
    workers: 1,
  });

describe('ingest without copies', () => {
  it('copies the source by default, or takes it over as rows.csv with moveSource, to the same session', async () => {
    const text = csv(400);
    const copySrc = join(dir, 'copy.csv');
    await writeFile(copySrc, text);
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const copied = await ingestFile({ sourcePath: copySrc, sessionDir: a, pool: POOL });
    // the service streams an upload into the session folder, then lets ingest take it over
    await mkdir(b);
    const moveSrc = join(b, 'upload.dat');
    await writeFile(moveSrc, text);
    const moved = await ingestFile({
      sourcePath: moveSrc,
      sessionDir: b,
      pool: POOL,
      moveSource: true,
    });
    expect(await readFile(copySrc, 'utf8')).toBe(text); // left alone
    expect((await readdir(b)).sort()).toEqual([
      'ingest.json',
      'rejected-rows.csv',
      'rows.csv',
      'rows.idx',
      'tickets.bin',
    ]);
    expect(await readFile(join(b, 'rows.csv'), 'utf8')).toBe(text);
    const { createdAt: _a, ...c1 } = copied;
    const { createdAt: _b, ...m1 } = moved;
    expect(m1).toEqual(c1);
    expect(moved).toMatchObject({ rowsRead: 400, rejected: 31, accepted: 369 });
    for (const f of ['tickets.bin', 'rows.idx', 'rejected-rows.csv', 'rows.csv']) {
      expect(await readFile(join(b, f)), f).toEqual(await readFile(join(a, f)));
    }
  });

  it('repeats a moving ingest cut off after the move (source gone, rows.csv there, no ingest.json)', async () => {
    const text = csv(250);
    const s = join(dir, 'cut');
    await mkdir(s);
    // what a crash leaves: the upload already renamed, a stale temp file, no ingest.json
    await writeFile(join(s, 'rows.csv'), text);
    await writeFile(join(s, 'tickets.bin.tmp-1-2'), 'half');
    const summary = await ingestFile({
      sourcePath: join(s, 'upload.dat'),
      sessionDir: s,
      pool: POOL,
      moveSource: true,
    });
    expect(summary).toMatchObject({ rowsRead: 250, accepted: 250 - 19 });
    expect(await readFile(join(s, 'rows.csv'), 'utf8')).toBe(text);
    await analyse(s);
    const session = await openSession(s);
    expect(session.filter({ pageSize: 20 }).items.length).toBe(20);
    const top = session.filter({ pageSize: 1 }).items[0]!;
    const page = await session.winners(top.combo, 3, 1, 5);
    expect(page.total).toBe(top.winners[3]);
    for (const w of page.items) expect(text).toContain(`${w.customerId},"${w.name}"`);
    session.close();
  });

  it('repeats an analysis with the same results, times the save and leaves no temporary file', async () => {
    const src = join(dir, 'top.csv');
    await writeFile(src, csv(120));
    const s = join(dir, 'top');
    await ingestFile({ sourcePath: src, sessionDir: s, pool: POOL });
    const first = await analyse(s);
    const again = await analyse(s);
    expect(again.qualified).toBe(first.qualified);
    expect(again.stats).toEqual(first.stats);
    expect(again.timings.saveMs).toBeGreaterThanOrEqual(0);
    expect((await readdir(s)).filter((f) => f.includes('tmp'))).toEqual([]);
  });
});
