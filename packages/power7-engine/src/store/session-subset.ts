import { copyFile, link, mkdir } from 'node:fs/promises';
import { PICK } from '../core/model';
import { fileIn, readAligned, readJson, writeAtomic } from './session-files';
import type { IngestSummary } from './session-types';

/**
 * A new session folder holding some of a read session's tickets (`keep[t]` = 1), as if its file had
 * held only their rows: `tickets.bin` and `rows.idx` cut to them, pointing into the source's
 * `rows.csv` (linked, never changed), no rejected rows, `ingest.json` last. The service then runs
 * the analysis on it as on a rerun that reads no file — e.g. the tickets a liability limit accepts
 * (docs/product/services.md "Liability limit").
 */
export async function writeTicketSubset(
  sourceDir: string,
  dir: string,
  keep: Uint8Array,
): Promise<{ tickets: number; bytes: number }> {
  const ingest = await readJson<IngestSummary>(fileIn(sourceDir, 'ingest'));
  if (!ingest) throw new Error('the source session has no read tickets');
  const tickets = new Uint8Array(await readAligned(fileIn(sourceDir, 'tickets')));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sourceDir, 'rowIndex'));
  const offsets = new Float64Array(idx, 0, count);
  const lines = new Uint32Array(idx, count * 8, count);
  const lengths = new Uint32Array(idx, count * 12, count);
  let kept = 0;
  for (let t = 0; t < count; t++) if (keep[t]) kept++;
  const outTickets = new Uint8Array(kept * PICK);
  const outIdx = new ArrayBuffer(kept * 16);
  const outOffsets = new Float64Array(outIdx, 0, kept);
  const outLines = new Uint32Array(outIdx, kept * 8, kept);
  const outLengths = new Uint32Array(outIdx, kept * 12, kept);
  for (let t = 0, k = 0; t < count; t++) {
    if (!keep[t]) continue;
    outTickets.set(tickets.subarray(t * PICK, t * PICK + PICK), k * PICK);
    outOffsets[k] = offsets[t]!;
    outLines[k] = lines[t]!;
    outLengths[k] = lengths[t]!;
    k++;
  }
  await mkdir(dir, { recursive: true });
  await linkOrCopy(fileIn(sourceDir, 'rows'), fileIn(dir, 'rows'));
  await writeAtomic(fileIn(dir, 'tickets'), (fh) => fh.write(outTickets).then(() => undefined));
  await writeAtomic(fileIn(dir, 'rowIndex'), (fh) =>
    fh.write(new Uint8Array(outIdx)).then(() => undefined),
  );
  await writeAtomic(fileIn(dir, 'rejectedCsv'), (fh) =>
    fh.write('line,reason,raw\r\n').then(() => undefined),
  );
  const summary: IngestSummary = {
    ...ingest,
    rowsRead: kept,
    accepted: kept,
    rejected: 0,
    rejectedSample: [],
    rejectedReasons: {},
    createdAt: new Date().toISOString(),
  };
  await writeAtomic(fileIn(dir, 'ingest'), (fh) =>
    fh.write(JSON.stringify(summary)).then(() => undefined),
  );
  return { tickets: kept, bytes: outTickets.length + outIdx.byteLength };
}

/** A hard link (the source's rows never change), or a copy where the file system has none. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
    await copyFile(from, to);
  }
}
