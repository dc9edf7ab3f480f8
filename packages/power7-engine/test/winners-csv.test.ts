import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_TYPES } from '../src/core/model';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { closeWinnersThreads } from '../src/parallel/winners-pool';
import { collect, referenceCsv } from './winners-reference';

// Cells the byte-level writer must treat exactly as `csvCell` does: formulas, plain numbers, quotes,
// delimiters inside quotes, line breaks inside quotes, non-ASCII text, tabs, empty cells.
const ODD_CELLS = [
  'plain',
  '=HYPERLINK("x")',
  '+15551234',
  '-0.25',
  '-1+1',
  '+1 555 1234',
  '@SUM(A1)',
  '\tindented',
  'Zoë Ñandú',
  'has "quotes"',
  'a, b',
  'two\nlines',
  '',
  '-',
  '+.5',
  '1.',
];

function quote(cell: string, delimiter: string): string {
  return /["\r\n]/.test(cell) || cell.includes(delimiter) || cell.includes(',')
    ? `"${cell.replaceAll('"', '""')}"`
    : cell;
}

/** A file of 400 tickets in 1..10 whose text cells cycle through ODD_CELLS (some rows unquoted). */
function oddFile(delimiter: string): string {
  const lines = [['id', 'name', 'note', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'].join(delimiter)];
  for (let i = 0; i < 400; i++) {
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => (n * 7 + i) % 10 > 2).slice(0, 7);
    while (numbers.length < 7) numbers.push([8, 9, 10].find((n) => !numbers.includes(n))!);
    numbers.sort((a, b) => a - b);
    const note = ODD_CELLS[i % ODD_CELLS.length]!;
    const name = i % 3 === 0 ? ODD_CELLS[(i * 5) % ODD_CELLS.length]! : `Name ${i}`;
    const cells = [`C${i}`, name, note].map((c) =>
      // plain cells mostly unquoted, as people's files are; some quoted anyway
      i % 7 === 0 || /["\r\n]/.test(c) || c.includes(delimiter) ? quote(c, delimiter) : c,
    );
    lines.push([...cells, ...numbers.map(String)].join(delimiter));
  }
  return lines.join(lineEnd(delimiter)) + '\n';
}
const lineEnd = (delimiter: string) => (delimiter === ';' ? '\r\n' : '\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-winners-csv-'));
});
afterAll(async () => {
  await closeWinnersThreads();
  await rm(dir, { recursive: true, force: true });
});

describe('winners CSV written from the row bytes on the winners threads', () => {
  for (const delimiter of [',', ';']) {
    it(`has the reference's bytes for every match type and draw (delimiter ${delimiter})`, async () => {
      const sessionDir = join(dir, delimiter === ',' ? 'comma' : 'semicolon');
      const source = join(dir, `odd-${sessionDir.length}.csv`);
      await writeFile(source, oddFile(delimiter));
      await ingestFile({ sourcePath: source, sessionDir, pool: 10 });
      await runAnalysis({
        sessionDir,
        payouts: { 3: 1, 4: 2.5, 5: 10, 6: 100, 7: 1000 },
        budget: { type: 'range', min: 0, max: 1e9 },
        workers: 1,
      });
      const session = await openSession(sessionDir);
      const draws = session.filter({ pageSize: 6 }).items.map((d) => d.combo);
      expect(draws.length).toBeGreaterThan(0);
      for (const combo of draws) {
        for (const m of ['all', ...MATCH_TYPES] as const) {
          const expected = await referenceCsv(sessionDir, session, combo, m);
          const [bytes, text] = await Promise.all([
            collect(session.winnersCsvBytes(combo, m)),
            (async () => {
              let s = '';
              for await (const c of session.winnersCsv(combo, m)) s += c;
              return Buffer.from(s);
            })(),
          ]);
          expect(bytes.equals(expected), `${combo} ${m}`).toBe(true);
          expect(text.equals(expected), `${combo} ${m} as text`).toBe(true);
        }
      }
      session.close();
    }, 60_000);
  }

  it('stops the thread when the reader stops early, and a bad combo throws before any work', async () => {
    const session = await openSession(join(dir, 'comma'));
    const combo = session.filter({ pageSize: 1 }).items[0]!.combo;
    expect(() => session.winnersCsvBytes('1-2-3', 'all')).toThrow(/combo|draw|7/i);
    for await (const chunk of session.winnersCsvBytes(combo, 'all')) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      break;
    }
    // the threads are free again: a whole download still completes
    const whole = await collect(session.winnersCsvBytes(combo, 'all'));
    expect(whole.equals(await referenceCsv(join(dir, 'comma'), session, combo, 'all'))).toBe(true);
    session.close();
  }, 60_000);
});
