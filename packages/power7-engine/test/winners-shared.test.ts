import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICK } from '../src/core/model';
import { fileIn } from '../src/store/session-files';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { SEGMENT } from '../src/analysis/winners-csv';
import { closeWinnersThreads } from '../src/parallel/winners-pool';
import { collect, referenceCsv } from './winners-reference';

// Cells that take every path of the writer: copied as they are, neutralised, quoted, tokenized.
const CELLS = ['plain', '=1+2', '+15551234', 'a, b', 'has "quotes"', 'Zoë', '-', ''];
const TICKETS = 2 * SEGMENT + 1500;

/** TICKETS rows from 1..10: every ticket matches ≥ 4 of any draw, so "all" lists every row. */
function bigFile(): string {
  const lines = ['id,note,n1,n2,n3,n4,n5,n6,n7'];
  for (let i = 0; i < TICKETS; i++) {
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => (n * 3 + i) % 10 > 2 || n === 1);
    const cell = CELLS[i % CELLS.length]!;
    const quoted = /[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
    lines.push([`C${i}`, quoted, ...numbers.slice(0, PICK)].join(','));
  }
  return lines.join('\n') + '\n';
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-winners-shared-'));
});
afterAll(async () => {
  await closeWinnersThreads();
  await rm(dir, { recursive: true, force: true });
});

describe('a large winners CSV shared by the winners threads', () => {
  it('has the bytes of the tokenizing reference, and stops cleanly when the reader stops', async () => {
    const sessionDir = join(dir, 'session');
    const source = join(dir, 'big.csv');
    await writeFile(source, bigFile());
    await ingestFile({ sourcePath: source, sessionDir, pool: 10 });
    await runAnalysis({
      sessionDir,
      payouts: { 3: 1, 4: 2, 5: 10, 6: 100, 7: 1000 },
      budget: { type: 'range', min: 0, max: 1e12 },
      workers: 1,
    });
    const session = await openSession(sessionDir);
    const tickets = new Uint8Array(await readFile(fileIn(sessionDir, 'tickets')));
    expect(tickets.length / PICK).toBe(TICKETS);
    for (const combo of session.filter({ pageSize: 2 }).items.map((d) => d.combo)) {
      const expected = await referenceCsv(sessionDir, session, combo, 'all');
      const bytes = await collect(session.winnersCsvBytes(combo, 'all'));
      // more than two segments: written by both threads
      expect(bytes.toString('utf8').split('\r\n').length - 2).toBe(TICKETS);
      expect(bytes.equals(expected), combo).toBe(true);
    }
    const combo = session.filter({ pageSize: 1 }).items[0]!.combo;
    for await (const chunk of session.winnersCsvBytes(combo, 'all')) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      break;
    }
    const again = await collect(session.winnersCsvBytes(combo, 'all'));
    expect(again.toString('utf8').split('\r\n').length - 2).toBe(TICKETS);
    session.close();
  }, 120_000);
});
