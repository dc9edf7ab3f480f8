import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWinners, RowReader, ticketMasks } from '../src/analysis/winners';
import { MATCH_TYPES, parseCombo, PICK } from '../src/core/model';
import { closeWinnersThreads } from '../src/parallel/winners-pool';
import { fileIn, readAligned } from '../src/store/session-files';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import type { OpenSession } from '../src/store/session-types';
import { ticketArb } from './arbitraries';

// Cells the CSV reader must take apart: quoted, with the delimiter, quotes, a line end, non-ASCII.
const CELLS = ['plain', 'a, b', 'has "quotes"', 'two\nlines', 'Zoë', ''];
const POOL = 12;
const TICKETS = 4000;

let dir: string;
let sessionDir: string;
let session: OpenSession;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-winners-page-'));
  const tickets = fc.sample(ticketArb(POOL), { numRuns: TICKETS, seed: 3 });
  const lines = ['id,note,n1,n2,n3,n4,n5,n6,n7'];
  tickets.forEach((t, i) => {
    const cell = CELLS[i % CELLS.length]!;
    const quoted = /[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
    lines.push([`C${i}`, quoted, ...t].join(','));
    // refused rows between the tickets: the stored rows are not contiguous
    if (i % 97 === 0) lines.push(`X${i},bad,1,1,1,1,1,1,1`);
  });
  const source = join(dir, 'customers.csv');
  await writeFile(source, lines.join('\n') + '\n');
  sessionDir = join(dir, 'session');
  await ingestFile({ sourcePath: source, sessionDir, pool: POOL });
  await runAnalysis({
    sessionDir,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    budget: { type: 'fixed', budget: 1e9 },
    workers: 1,
  });
  session = await openSession(sessionDir);
}, 120_000);
afterAll(async () => {
  session?.close();
  await closeWinnersThreads();
  await rm(dir, { recursive: true, force: true });
});

/** Every winner's original fields, read the way pages were read before (RowReader.rows, async). */
async function referenceRows(combo: string, m: 3 | 4 | 5 | 6 | 7) {
  const tickets = new Uint8Array(await readFile(fileIn(sessionDir, 'tickets')));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sessionDir, 'rowIndex'));
  const rows = new RowReader(
    fileIn(sessionDir, 'rows'),
    session.ingest.delimiter.charCodeAt(0),
    new Float64Array(idx, 0, count),
    new Uint32Array(idx, count * 12, count),
  );
  const { index } = findWinners(ticketMasks(tickets, count), parseCombo(combo, POOL), m);
  const out: string[][] = [];
  for await (const fields of rows.rows(index)) out.push(fields);
  return out;
}

describe('winners pages read on the winners threads', () => {
  it("hold every winner's original columns, page by page, as the rows read before", async () => {
    const combos = (await session.filterAsync({ pageSize: 3 })).items.map((d) => d.combo);
    combos.push('1-3-5-7-9-11-12');
    for (const combo of combos) {
      for (const m of MATCH_TYPES) {
        const want = await referenceRows(combo, m);
        const got: string[][] = [];
        for (let page = 1; ; page++) {
          const answer = await session.winners(combo, m, page, 97);
          expect(answer.total).toBe(want.length);
          got.push(...answer.items.map((w) => session.ingest.columns.map((h) => w.columns[h]!)));
          if (answer.items.length < 97) break;
        }
        expect(got, `${combo} / ${m}`).toEqual(want);
      }
    }
  }, 60_000);
});
