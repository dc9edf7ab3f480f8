/**
 * XLSX files written byte by byte for tests, hostile ones included: deflated parts streamed into a zip
 * (a sheet of hundreds of MB costs a small archive), directory records that may disagree with the
 * local headers.
 */
import { crc32, createDeflateRaw } from 'node:zlib';
import { writeFile } from 'node:fs/promises';
import type ExcelJS from 'exceljs';

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

/** How an entry appears in the central directory: under another name, or not at all. */
export interface DirectoryListing {
  listedAs?: string;
  unlisted?: boolean;
}

/**
 * A zip archive (deflated entries, no data descriptors) written by hand; an entry's directory record
 * may disagree with its local header (`DirectoryListing`), as a hostile file's would.
 */
export async function zip(
  entries: [string, Iterable<Buffer>, DirectoryListing?][],
): Promise<Buffer> {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  let listed = 0;
  for (const [name, parts, listing = {}] of entries) {
    const { data, crc, size } = await deflate(parts);
    const fileName = Buffer.from(name);
    const listedName = Buffer.from(listing.listedAs ?? name);
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
    entry.writeUInt16LE(listedName.length, 28);
    entry.writeUInt32LE(offset, 42);
    local.push(header, fileName, data);
    if (!listing.unlisted) {
      central.push(entry, listedName);
      listed++;
    }
    offset += header.length + fileName.length + data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(listed, 8);
  end.writeUInt16LE(listed, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, dirBytes, end]);
}

export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const PKG = 'http://schemas.openxmlformats.org/package/2006';
export const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
export const numbers = (row: number) =>
  [1, 2, 3, 4, 5, 6, 7].map((n, i) => `<c r="${'BCDEFGH'[i]}${row}"><v>${n}</v></c>`).join('');

/** The header row of a customer sheet: name, n1..n7. */
export const HEADER_ROW = `<row r="1">${inline('A1', 'name')}${[1, 2, 3, 4, 5, 6, 7]
  .map((n, i) => inline(`${'BCDEFGH'[i]}1`, `n${n}`))
  .join('')}</row>`;

/** A sheet part: the worksheet's opening, `rows` streamed as they come, its end. */
export function* sheetXml(rows: Iterable<Buffer | string>): Generator<Buffer> {
  yield Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`);
  for (const row of rows) yield typeof row === 'string' ? Buffer.from(row) : row;
  yield Buffer.from(`</sheetData></worksheet>`);
}

/**
 * A minimal workbook around one sheet part (no shared strings, so the reader keeps the sheet in a
 * temp file until the end of the zip). `sheetListing` says how the directory lists the sheet.
 */
export function workbookWith(
  sheet: Iterable<Buffer>,
  sheetListing: DirectoryListing = {},
): Promise<Buffer> {
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
    ['xl/worksheets/sheet1.xml', sheet, sheetListing],
  ]);
}

/**
 * A workbook of `rows` tickets (1..7 each) under the header: `rows` 300,000 is ~40 MB of sheet XML
 * in a ~1 MB zip.
 */
export function ticketsWorkbook(rows: number): Promise<Buffer> {
  function* body() {
    yield HEADER_ROW;
    // a thousand rows a part: the deflate is fed large writes
    for (let first = 2; first <= rows + 1; first += 1000) {
      const last = Math.min(rows + 1, first + 999);
      let part = '';
      for (let r = first; r <= last; r++)
        part += `<row r="${r}">${inline(`A${r}`, 'x')}${numbers(r)}</row>`;
      yield part;
    }
  }
  return workbookWith(sheetXml(body()));
}

/**
 * Writes an ExcelJS workbook through a buffer: `xlsx.writeFile` resolves on its zip's finish, which
 * can come before the file stream has every byte (a test once read a file without its last entry,
 * `xl/workbook.xml`, on a busy machine).
 */
export async function writeWorkbook(wb: ExcelJS.Workbook, path: string): Promise<void> {
  await writeFile(path, Buffer.from(await wb.xlsx.writeBuffer()));
}
