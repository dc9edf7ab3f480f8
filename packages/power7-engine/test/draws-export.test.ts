import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAWS_CSV_HEADER } from '../src/core/draw-query';
import { ingestFile, openSession, runAnalysis, type OpenSession } from '../src/store/session-store';

let dir: string;
let session: OpenSession;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-export-'));
  const lines = ['n1,n2,n3,n4,n5,n6,n7'];
  for (let i = 0; i < 300; i++) {
    const picked = new Set<number>();
    let x = i * 7919;
    while (picked.size < 7) picked.add(1 + ((x = (x * 31 + 17) % 9973) % 12));
    lines.push([...picked].join(','));
  }
  const src = join(dir, 'c.csv');
  await writeFile(src, lines.join('\n'));
  const sessionDir = join(dir, 's');
  await ingestFile({ sourcePath: src, sessionDir, pool: 12 });
  await runAnalysis({
    sessionDir,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    budget: { type: 'fixed', budget: 12_000 },
    workers: 1,
  });
  session = await openSession(sessionDir);
});
afterAll(async () => {
  session?.close();
  await rm(dir, { recursive: true, force: true });
});

const csvOf = (chunks: Iterable<string>) => [...chunks].join('').trim().split('\r\n');

describe('exporting the qualifying draws', () => {
  it('writes every draw the filter matches, as the filter counts them, in batches', () => {
    const filters = { totalPayout: { min: 9000 }, mustInclude: [3], winners: { 3: { min: 1 } } };
    const page = session.filter({
      ...filters,
      page: 1,
      pageSize: 1000,
      sort: { by: 'combo', direction: 'asc' },
    });
    expect(page.total).toBeGreaterThan(10);
    const lines = csvOf(session.drawsCsv(filters));
    expect(lines[0]).toBe(DRAWS_CSV_HEADER.join(','));
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(page.total);
    const expected = page.items.map((d) => [
      d.combo,
      ...[3, 4, 5, 6, 7].map((m) => String(d.winners[m as 3])),
      String(d.totalPayout),
    ]);
    expect(rows.sort()).toEqual(expected.sort());
  });

  it('exports every qualifying draw without filters, and refuses a bad filter at once', () => {
    expect(csvOf(session.drawsCsv({}))).toHaveLength(session.analysis.qualified + 1);
    expect(() => session.drawsCsv({ mustInclude: [13] })).toThrow(/mustInclude/);
  });
});
