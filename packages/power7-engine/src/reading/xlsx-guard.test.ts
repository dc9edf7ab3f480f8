import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCustomerFile } from './customer-file';
import { HEADER_ROW, MAIN, numbers, sheetXml, workbookWith, zip } from '../testing/xlsx-zip';
import { checkXlsxLimits } from './xlsx-guard';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-guard-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A minimal workbook: a header (name, n1..n7) and one ticket whose name cell is `nameBytes` bytes
 * of `A` — streamed into the zip, so a 300 MB cell costs the test a ~300 KB archive.
 */
function workbook(nameBytes: number): Promise<Buffer> {
  function* rows() {
    yield HEADER_ROW;
    yield '<row r="2"><c r="A2" t="inlineStr"><is><t>';
    const block = Buffer.alloc(1 << 20, 0x41);
    for (let left = nameBytes; left > 0; left -= block.length) {
      yield left >= block.length ? block : block.subarray(0, left);
    }
    yield `</t></is></c>${numbers(2)}</row>`;
  }
  return workbookWith(sheetXml(rows()));
}

describe('XLSX limits', () => {
  it('reads a workbook of ordinary cells', async () => {
    const path = join(dir, 'small.xlsx');
    await writeFile(path, await workbook(1000));
    await expect(checkXlsxLimits(path)).resolves.toBeUndefined();
    const file = await readCustomerFile(path, { pool: 35 });
    expect(file.format).toBe('xlsx');
    expect(Array.from(file.tickets)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses a small zip holding a 300 MB cell before reading it, without taking the memory', async () => {
    const bytes = await workbook(300 << 20);
    expect(bytes.length).toBeLessThan(2 << 20); // ~1.3 MB at level 1; Excel's level: ~330 KB
    const path = join(dir, 'huge-cell.xlsx');
    await writeFile(path, bytes);
    const rss = process.memoryUsage().rss;
    const cpu = process.cpuUsage();
    await expect(readCustomerFile(path, { pool: 35 })).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('more than 1 MiB'),
    });
    // stopped after the first MiB past the cell's start, not after inflating 300 MB: measured in
    // this process's CPU time, which a busy machine does not stretch (the wall clock once passed
    // 5 s at load 22)
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 << 20);
  }, 60_000);

  it('refuses a row of many small cells that together pass the row limit', async () => {
    const cells = Array.from({ length: 20 }, () => Buffer.from(`<c><v>1</v></c>`.repeat(60_000)));
    const zipped = await zip([
      [
        'xl/worksheets/sheet1.xml',
        [Buffer.from(`<worksheet xmlns="${MAIN}"><sheetData><row r="1">`), ...cells],
      ],
    ]);
    const path = join(dir, 'wide-row.xlsx');
    await writeFile(path, zipped);
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('A row'),
    });
  });

  it('calls a zip without its directory damaged', async () => {
    const whole = await workbook(10);
    const path = join(dir, 'cut.xlsx');
    await writeFile(path, whole.subarray(0, whole.length - 30));
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({ code: 'XLSX_INVALID' });
  });

  // the workbook reader follows the local headers; a guard that read the directory alone was bypassed
  it('refuses a sheet the directory lists under another name', async () => {
    const path = join(dir, 'renamed.xlsx');
    await writeFile(
      path,
      await workbookWith(sheetXml([HEADER_ROW]), { listedAs: 'xl/media/image1.bin' }),
    );
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({
      code: 'XLSX_INVALID',
      message: expect.stringContaining('disagree with its directory'),
    });
  });

  it('refuses a sheet present only as a local entry', async () => {
    const path = join(dir, 'unlisted.xlsx');
    await writeFile(path, await workbookWith(sheetXml([HEADER_ROW]), { unlisted: true }));
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({
      code: 'XLSX_INVALID',
      message: expect.stringContaining('disagree with its directory'),
    });
  });

  it('checks a part the reader takes for a sheet by its unanchored name', async () => {
    // ExcelJS parses `…/sheet1.xml.bak` as a worksheet: so must the row limit
    const cells = Array.from({ length: 20 }, () => Buffer.from(`<c><v>1</v></c>`.repeat(60_000)));
    const zipped = await zip([
      [
        'xl/worksheets/sheet1.xml.bak',
        [Buffer.from(`<worksheet xmlns="${MAIN}"><sheetData><row r="1">`), ...cells],
      ],
    ]);
    const path = join(dir, 'bak.xlsx');
    await writeFile(path, zipped);
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('A row'),
    });
  });

  it('does not take `<rowa>` and the like for rows (they once reset the row limit)', async () => {
    const path = join(dir, 'rowa.xlsx');
    const tags = Array.from({ length: 20 }, () => Buffer.from('<rowa>'.repeat(200_000)));
    await writeFile(path, await workbookWith(sheetXml(tags)));
    await expect(checkXlsxLimits(path)).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('A row'),
    });
  });
});
