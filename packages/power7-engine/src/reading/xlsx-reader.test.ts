import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_ROW, sheetXml, ticketsWorkbook, workbookWith } from '../testing/xlsx-zip';
import { checkXlsxLimits } from './xlsx-guard';
import { xlsxAsCsv, type XlsxReadOptions } from './xlsx-reader';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readAll(path: string, options: XlsxReadOptions): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxAsCsv(path, options)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** ExcelJS's temp files of this process left in the system temp folder (`tmp-<pid>-…`). */
const strayTempFiles = async () =>
  (await readdir(tmpdir())).filter((name) => name.startsWith(`tmp-${process.pid}-`));

/**
 * Rows of unclosed tags, each far below the row limit, so the guard lets the workbook through; the
 * XML parser keeps every open tag, so reading it takes memory without bound (~100 MB of XML here).
 */
function unclosedTagsSheet(): Iterable<Buffer> {
  function* rows() {
    yield HEADER_ROW;
    for (let r = 2; r < 40; r++) yield `<row r="${r}">${'<a>'.repeat(1_000_000)}`;
  }
  return sheetXml(rows());
}

describe('reading an XLSX on its own thread', () => {
  it('reads a sheet, its temp file in a scratch folder removed afterwards', async () => {
    const path = join(dir, 'tickets.xlsx');
    await writeFile(path, await ticketsWorkbook(3));
    const scratchParent = await mkdtemp(join(dir, 'session-'));
    const before = await strayTempFiles();
    let duringRead: string[] = [];
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxAsCsv(path, { scratchParent })) {
      // the sheet came before any shared strings, so the reader parked it in a temp file: there
      const [scratch] = await readdir(scratchParent);
      duringRead = scratch ? await readdir(join(scratchParent, scratch)) : [];
      duringRead = duringRead.filter((name) => name.startsWith('tmp-')); // (tsx keeps a cache too)
      chunks.push(chunk);
    }
    expect(Buffer.concat(chunks).toString()).toBe(
      'name,n1,n2,n3,n4,n5,n6,n7\nx,1,2,3,4,5,6,7\nx,1,2,3,4,5,6,7\nx,1,2,3,4,5,6,7\n',
    );
    expect(duringRead).toHaveLength(1);
    expect(await readdir(scratchParent)).toEqual([]);
    expect(await strayTempFiles()).toEqual(before);
  }, 60_000);

  it('fails a workbook that fills its memory with XLSX_TOO_LARGE, and nothing else', async () => {
    const path = join(dir, 'unclosed.xlsx');
    const bytes = await workbookWith(unclosedTagsSheet());
    expect(bytes.length).toBeLessThan(1 << 20);
    await writeFile(path, bytes);
    await expect(checkXlsxLimits(path)).resolves.toBeUndefined();
    const scratchParent = await mkdtemp(join(dir, 'session-'));
    const heap = process.memoryUsage().heapUsed;
    await expect(readAll(path, { scratchParent, maxMemoryMb: 128 })).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('more than 128 MiB of memory'),
    });
    // the worker's heap is its own: this thread's did not take the bomb
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 << 20);
    expect(await readdir(scratchParent)).toEqual([]);
  }, 120_000);

  it('stops a read that takes longer than its time limit', async () => {
    const path = join(dir, 'long.xlsx');
    await writeFile(path, await ticketsWorkbook(300_000));
    const scratchParent = await mkdtemp(join(dir, 'session-'));
    await expect(readAll(path, { scratchParent, maxSeconds: 1 })).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('longer than 1 s'),
    });
    expect(await readdir(scratchParent)).toEqual([]);
  }, 120_000);

  it('stops when its signal aborts', async () => {
    const path = join(dir, 'abort.xlsx');
    await writeFile(path, await ticketsWorkbook(300_000));
    const controller = new AbortController();
    const reading = readAll(path, { signal: controller.signal });
    controller.abort();
    await expect(reading).rejects.toMatchObject({ code: 'CANCELLED' });
  }, 60_000);
});
