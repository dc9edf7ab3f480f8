import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { EngineError } from './errors';

/**
 * Limits of what an XLSX may make the reader hold. The workbook reader (ExcelJS) keeps one cell's
 * text, one row's cells and every shared string in memory, so a small zip (330 KB) inflating to one
 * 300 MB cell took the service from ~1 GB to over 2 GB. These limits sit far above any real customer
 * file (Excel itself caps a cell at 32,767 characters) and are checked on the inflated bytes, not on
 * the sizes the zip declares (which a crafted file can fake).
 */
export const XLSX_LIMITS = {
  /** Longest text or tag between two `<` of an XML part: one cell's text is at most this. */
  maxNodeBytes: 1 << 20,
  /** Largest `<row>` of a worksheet. */
  maxRowBytes: 16 << 20,
  /** Largest inflated shared-strings part (all of it is kept in memory). */
  maxSharedStringsBytes: 256 << 20,
  /** Largest inflated worksheet (streamed, but reading it costs time). */
  maxSheetBytes: 2 * 1024 ** 3,
  /** Largest inflated other XML part (workbook, relationships, styles…). */
  maxOtherBytes: 64 << 20,
};

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** Where the entry's local header starts, then (once read) where its data starts. */
  offset: number;
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const tooLarge = (message: string) => new EngineError('XLSX_TOO_LARGE', message);
const damaged = (why: string) =>
  new EngineError('XLSX_INVALID', `The XLSX file is damaged and cannot be read (${why}).`);

/** The entries of a zip file, from its central directory, each with the offset of its data. */
async function zipEntries(path: string): Promise<ZipEntry[]> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    // the end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB, at the end
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await fh.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd === -1) throw damaged('no zip directory');
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset === 0xffffffff || count === 0xffff) {
      throw tooLarge('The XLSX file is larger than a customer file can be (a ZIP64 archive).');
    }
    if (dirOffset + dirSize > size) throw damaged('its zip directory is cut off');
    const dir = Buffer.alloc(dirSize);
    await fh.read(dir, 0, dirSize, dirOffset);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let k = 0; k < count; k++) {
      if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) {
        throw damaged('a broken zip directory entry');
      }
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const commentLength = dir.readUInt16LE(p + 32);
      entries.push({
        name: dir.toString('utf8', p + 46, p + 46 + nameLength),
        method: dir.readUInt16LE(p + 10),
        compressedSize: dir.readUInt32LE(p + 20),
        offset: dir.readUInt32LE(p + 42),
      });
      p += 46 + nameLength + extraLength + commentLength;
    }
    for (const entry of entries) {
      const local = Buffer.alloc(30);
      await fh.read(local, 0, 30, entry.offset);
      if (local.readUInt32LE(0) !== 0x04034b50) throw damaged('a broken zip entry');
      entry.offset += 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    }
    return entries;
  } finally {
    await fh.close();
  }
}

const ROW_TAG = Buffer.from('<row');
/** Read and inflate size; below `maxNodeBytes`, which the per-chunk check relies on. */
const CHUNK = 64 * 1024;

/**
 * Inflates one XML part and checks its bytes as they come: total size, longest node, longest row.
 * Stops at the first limit passed, so a bomb costs only the bytes up to it.
 */
async function checkPart(path: string, entry: ZipEntry): Promise<void> {
  const sheet = /^xl\/worksheets\/[^/]+\.xml$/.test(entry.name);
  const maxBytes = sheet
    ? XLSX_LIMITS.maxSheetBytes
    : entry.name === 'xl/sharedStrings.xml'
      ? XLSX_LIMITS.maxSharedStringsBytes
      : XLSX_LIMITS.maxOtherBytes;
  let total = 0;
  let lastLt = 0;
  let lastRow = 0;
  let carry = Buffer.alloc(0);
  // the pipeline answers a refusal with its own AbortError: keep the refusal to throw it instead
  let refusal: EngineError | null = null;
  const refuse = (message: string) => {
    refusal = tooLarge(message);
    return refusal;
  };
  const scan = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      // a chunk is shorter than the node limit, so only the gap up to its first `<` can pass it
      const first = chunk.indexOf(0x3c);
      if (first !== -1 && total + first - lastLt <= XLSX_LIMITS.maxNodeBytes) {
        lastLt = total + chunk.lastIndexOf(0x3c);
      }
      const end = total + chunk.length;
      if (end - lastLt > XLSX_LIMITS.maxNodeBytes) {
        throw refuse(
          `A cell or tag of "${entry.name}" in the XLSX file holds more than ${mib(XLSX_LIMITS.maxNodeBytes)} MiB; this does not look like a customer file.`,
        );
      }
      if (sheet) {
        // `<row` may straddle two chunks: the previous chunk's last 3 bytes are searched with this one's
        const seam = Buffer.concat([carry, chunk.subarray(0, 3)]);
        if (seam.indexOf(ROW_TAG) !== -1) lastRow = total - carry.length + seam.indexOf(ROW_TAG);
        const row = chunk.lastIndexOf(ROW_TAG);
        if (row !== -1) lastRow = total + row;
        if (end - lastRow > XLSX_LIMITS.maxRowBytes) {
          throw refuse(
            `A row of the XLSX file holds more than ${mib(XLSX_LIMITS.maxRowBytes)} MiB; this does not look like a customer file.`,
          );
        }
        carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - 3)));
      }
      total = end;
      if (total > maxBytes) {
        throw refuse(
          `The part "${entry.name}" of the XLSX file unpacks to more than ${mib(maxBytes)} MiB; this does not look like a customer file.`,
        );
      }
    }
  };
  const source = createReadStream(path, {
    highWaterMark: CHUNK,
    start: entry.offset,
    end: entry.offset + Math.max(0, entry.compressedSize - 1),
  });
  try {
    if (entry.method === 8) await pipeline(source, createInflateRaw({ chunkSize: CHUNK }), scan);
    else if (entry.method === 0) await pipeline(source, scan);
    else throw damaged(`compression method ${entry.method} is not supported`);
  } catch (err) {
    throw refusal ?? (err instanceof EngineError ? err : damaged((err as Error).message));
  }
}

/**
 * Refuses, before the workbook is read, an XLSX whose XML parts would make the reader hold more than
 * `XLSX_LIMITS` allow (XLSX_TOO_LARGE), or whose zip structure is broken (XLSX_INVALID). Cost: one
 * inflate of the XML parts, stopped at the first limit passed (~0.1–0.2 s per 100 MB of sheet XML).
 */
export async function checkXlsxLimits(path: string): Promise<void> {
  const entries = await zipEntries(path);
  for (const entry of entries) {
    if (!/\.(xml|rels)$/.test(entry.name)) continue;
    await checkPart(path, entry);
  }
}
