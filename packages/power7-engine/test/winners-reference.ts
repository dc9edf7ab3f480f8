import { readFile } from 'node:fs/promises';
import { parseCombo, PICK } from '../src/core/model';
import { RowReader, ticketMasks, winnersCsv } from '../src/analysis/winners';
import { fileIn, readAligned } from '../src/store/session-files';
import type { OpenSession } from '../src/store/session-store';

/** What the download held before the byte-level writer: the tokenizing reference in `winners.ts`. */
export async function referenceCsv(
  sessionDir: string,
  session: OpenSession,
  combo: string,
  m: 'all' | 3 | 4 | 5 | 6 | 7,
) {
  const tickets = new Uint8Array(await readFile(fileIn(sessionDir, 'tickets')));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sessionDir, 'rowIndex'));
  const rows = new RowReader(
    fileIn(sessionDir, 'rows'),
    session.ingest.delimiter.charCodeAt(0),
    new Float64Array(idx, 0, count),
    new Uint32Array(idx, count * 12, count),
  );
  let out = '';
  for await (const chunk of winnersCsv({
    header: session.ingest.columns,
    tickets,
    masks: ticketMasks(tickets, count),
    rows,
    numbers: parseCombo(combo, session.ingest.pool),
    matchType: m,
    payouts: session.analysis.payouts,
  })) {
    out += chunk;
  }
  return Buffer.from(out);
}

export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}
