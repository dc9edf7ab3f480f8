import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, createDeflateRaw } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCustomerFile } from './customer-file';
import { checkXlsxLimits } from './xlsx-guard';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-guard-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Deflates parts as they come (so a part of hundreds of MB is never one buffer) with its CRC. */
async function deflate(parts: Iterable<Buffer>) {
  const z = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => z.on('end', resolve));
  let crc = 0;
  let size = 0;
  for (const part of parts) {
    crc = crc32(part, crc);
    size += part.length;
    if (!z.write(part)) await new Promise((resolve) => z.once('drain', resolve));
  }
  z.end();
  await done;
  return { data: Buffer.concat(out), crc, size };
}

/** A zip archive (deflated entries, no data descriptors) written by hand. */
async function zip(entries: [string, Iterable<Buffer>][]): Promise<Buffer> {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, parts] of entries) {
    const { data, crc, size } = await deflate(parts);
    const fileName = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    local.push(header, fileName, data);
    central.push(entry, fileName);
    offset += header.length + fileName.length + data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, dirBytes, end]);
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const PKG = 'http://schemas.openxmlformats.org/package/2006';
const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const numbers = (row: number) =>
  [1, 2, 3, 4, 5, 6, 7].map((n, i) => `<c r="${'BCDEFGH'[i]}${row}"><v>${n}</v></c>`).join('');

/**
 * A minimal workbook: a header (name, n1..n7) and one ticket whose name cell is `nameBytes` bytes
 * of `A` — streamed into the zip, so a 300 MB cell costs the test a ~300 KB archive.
 */
async function workbook(nameBytes: number): Promise<Buffer> {
  const header = `<row r="1">${inline('A1', 'name')}${[1, 2, 3, 4, 5, 6, 7]
    .map((n, i) => inline(`${'BCDEFGH'[i]}1`, `n${n}`))
    .join('')}</row>`;
  function* sheet() {
    yield Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${header}<row r="2"><c r="A2" t="inlineStr"><is><t>`,
    );
    const block = Buffer.alloc(1 << 20, 0x41);
    for (let left = nameBytes; left > 0; left -= block.length) {
      yield left >= block.length ? block : block.subarray(0, left);
    }
    yield Buffer.from(`</t></is></c>${numbers(2)}</row></sheetData></worksheet>`);
  }
  const text = (s: string) => [Buffer.from(s)];
  return zip([
    [
      '[Content_Types].xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${PKG}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
      ),
    ],
    [
      '_rels/.rels',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    ],
    [
      'xl/workbook.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Customers" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    ],
    ['xl/worksheets/sheet1.xml', sheet()],
  ]);
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
    const started = performance.now();
    await expect(readCustomerFile(path, { pool: 35 })).rejects.toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('more than 1 MiB'),
    });
    // stopped after the first MiB past the cell's start, not after inflating 300 MB
    expect(performance.now() - started).toBeLessThan(5_000);
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
});
