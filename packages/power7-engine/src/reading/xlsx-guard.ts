import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { EngineError } from '../core/errors';

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
  /** Where the entry's data starts. */
  offset: number;
}

/** Read and inflate size; below `maxNodeBytes`, which the per-chunk check relies on. */
const CHUNK = 64 * 1024;
const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const tooLarge = (message: string) => new EngineError('XLSX_TOO_LARGE', message);
const damaged = (why: string) =>
  new EngineError('XLSX_INVALID', `The XLSX file is damaged and cannot be read (${why}).`);
const zip64 = () =>
  tooLarge('The XLSX file is larger than a customer file can be (a ZIP64 archive).');

type FileHandle = Awaited<ReturnType<typeof open>>;

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buffer, 0, length, position);
  if (bytesRead < length) throw damaged('it is cut off');
  return buffer;
}

/** Where `pattern` first occurs in the file at or after `from` (-1: nowhere). */
async function indexInFile(fh: FileHandle, pattern: Buffer, from: number, size: number) {
  const chunk = Buffer.alloc(CHUNK + pattern.length - 1);
  for (let at = from; at < size; at += CHUNK) {
    const { bytesRead } = await fh.read(chunk, 0, chunk.length, at);
    const found = chunk.subarray(0, bytesRead).indexOf(pattern);
    if (found !== -1) return at + found;
  }
  return -1;
}

/** The entries the central directory names: name → local header offset and compressed size. */
async function directoryEntries(fh: FileHandle, size: number) {
  // the end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB, at the end
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await readAt(fh, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw damaged('no zip directory');
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirOffset === 0xffffffff || count === 0xffff) throw zip64();
  if (dirOffset + dirSize > size) throw damaged('its zip directory is cut off');
  const dir = await readAt(fh, dirOffset, dirSize);
  const entries = new Map<number, { name: string; compressedSize: number }>();
  let p = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL_HEADER) {
      throw damaged('a broken zip directory entry');
    }
    const nameLength = dir.readUInt16LE(p + 28);
    entries.set(dir.readUInt32LE(p + 42), {
      name: dir.toString('utf8', p + 46, p + 46 + nameLength),
      compressedSize: dir.readUInt32LE(p + 20),
    });
    p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
  }
  if (entries.size !== count) throw damaged('two directory entries share one place');
  return entries;
}

/**
 * The entries of a zip file as a streaming reader meets them (the workbook reader, through
 * `unzipper`, walks the local headers from the first byte and never reads the directory), refused
 * unless they are exactly the entries the central directory names, at the same places, by the same
 * names and sizes. So the limits are checked on the very entries, by the very names, that the reader
 * follows: a sheet hidden behind a directory entry named like an image, or present only as a local
 * entry, is refused (XLSX_INVALID).
 */
async function zipEntries(path: string): Promise<ZipEntry[]> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const directory = await directoryEntries(fh, size);
    const disagree = () => damaged('its zip entries disagree with its directory');
    const entries: ZipEntry[] = [];
    let at = 0;
    for (;;) {
      const signature = (await readAt(fh, at, 4)).readUInt32LE(0);
      if (signature === END_OF_DIRECTORY) break;
      if (signature === CENTRAL_HEADER) {
        const header = await readAt(fh, at, 46);
        at += 46 + header.readUInt16LE(28) + header.readUInt16LE(30) + header.readUInt16LE(32);
        continue;
      }
      if (signature !== LOCAL_HEADER) throw damaged('a broken zip entry');
      const header = await readAt(fh, at, 30);
      const flags = header.readUInt16LE(6);
      const localSize = header.readUInt32LE(18);
      if (localSize === 0xffffffff) throw zip64();
      const nameLength = header.readUInt16LE(26);
      const name = (await readAt(fh, at + 30, nameLength)).toString('utf8');
      const offset = at + 30 + nameLength + header.readUInt16LE(28);
      // as the streaming reader: sizes from the local header, or (data descriptor, size 0) the data
      // runs to the first descriptor signature, followed by a 16-byte descriptor
      const sizeKnown = !(flags & 0x08) || localSize > 0;
      const compressedSize = sizeKnown
        ? localSize
        : (await indexInFile(fh, DATA_DESCRIPTOR, offset, size)) - offset;
      if (compressedSize < 0) throw damaged('an entry without its end');
      const listed = directory.get(at);
      if (!listed || listed.name !== name || listed.compressedSize !== compressedSize) {
        throw disagree();
      }
      directory.delete(at);
      entries.push({ name, method: header.readUInt16LE(8), compressedSize, offset });
      at = offset + compressedSize + (sizeKnown ? 0 : 16);
    }
    if (directory.size > 0) throw disagree();
    return entries;
  } finally {
    await fh.close();
  }
}

/**
 * What the workbook reader (ExcelJS's stream reader) does with an entry, by the same tests in the same
 * order (its names are matched unanchored): parse it as a worksheet, hold it as the shared strings,
 * parse it as another part, or drain it unread (null).
 */
function readerRole(name: string): 'sheet' | 'sharedStrings' | 'other' | null {
  if (name === '_rels/.rels') return null;
  if (['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml'].includes(name)) {
    return 'other';
  }
  if (name === 'xl/sharedStrings.xml') return 'sharedStrings';
  if (/xl\/worksheets\/sheet\d+[.]xml/.test(name)) return 'sheet';
  if (/xl\/worksheets\/_rels\/sheet\d+[.]xml.rels/.test(name)) return 'other';
  return null;
}

const ROW_TAG = Buffer.from('<row');

/**
 * Where the last `<row` tag of `bytes` starts (-1: none): `<row` then a space, `>` or `/`, as the XML
 * parser reads a row element. `<rowa>` and the like are other elements and do not start a row.
 */
function lastRowTag(bytes: Buffer): number {
  for (let at = bytes.lastIndexOf(ROW_TAG); at !== -1; at = bytes.lastIndexOf(ROW_TAG, at - 1)) {
    const next = bytes[at + ROW_TAG.length];
    if (
      next === 0x20 ||
      next === 0x09 ||
      next === 0x0a ||
      next === 0x0d ||
      next === 0x3e ||
      next === 0x2f
    )
      return at;
    if (at === 0) break;
  }
  return -1;
}

/**
 * Inflates one XML part and checks its bytes as they come: total size, longest node, longest row.
 * Stops at the first limit passed, so a bomb costs only the bytes up to it.
 */
async function checkPart(
  path: string,
  entry: ZipEntry,
  role: 'sheet' | 'sharedStrings' | 'other',
): Promise<void> {
  const sheet = role === 'sheet';
  const maxBytes = sheet
    ? XLSX_LIMITS.maxSheetBytes
    : role === 'sharedStrings'
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
        // a row tag may straddle two chunks: the previous chunk's last 4 bytes are searched with
        // this one's first 4
        const seam = Buffer.concat([carry, chunk.subarray(0, 4)]);
        const inSeam = lastRowTag(seam);
        if (inSeam !== -1) lastRow = total - carry.length + inSeam;
        const row = lastRowTag(chunk);
        if (row !== -1) lastRow = total + row;
        if (end - lastRow > XLSX_LIMITS.maxRowBytes) {
          throw refuse(
            `A row of the XLSX file holds more than ${mib(XLSX_LIMITS.maxRowBytes)} MiB; this does not look like a customer file.`,
          );
        }
        carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - 4)));
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
    const role = readerRole(entry.name);
    if (role && entry.compressedSize > 0) await checkPart(path, entry, role);
  }
}
