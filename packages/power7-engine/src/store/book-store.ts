import { createHash } from 'node:crypto';
import { copyFile, mkdir, open, readFile, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LiveBookTotals,
  type BookSeed,
  type LiveBookGame,
  type TicketCheck,
} from '../analysis/book';
import type { BookTuning } from '../core/book-types';
import { EngineError } from '../core/errors';
import { type Payouts, PICK } from '../core/model';
import { fileIn, readAligned, readJson, syncDir, writeAtomic } from './session-files';
import { writeTicketSubset } from './session-subset';
import type { IngestSummary } from './session-types';

/**
 * A live book's folder (ADR 024): `book.json` (what it is, written atomically), `initial/` (the
 * session's tickets the limit accepted, as a session subset: tickets, row index, the rows linked)
 * and `sales.log`, one line per sale request — JSON, a tab and a checksum — appended and fsynced
 * before the request is answered. After a crash the log is read up to its last whole line and a
 * torn tail is cut; a request's id is in its line, so a retried request is answered from the log
 * and sells nothing twice. The caller serialises requests on one book (one writer at a time, across
 * processes too: `apps/power7-api/src/modules/books`).
 */

export interface BookMeta {
  id: string;
  name: string;
  owner: { userId: string; companyId: string };
  /** The session the book started from, its game and currency. */
  session: string;
  pool: number;
  payouts: Payouts;
  currency?: string;
  limit: number;
  /** The session's parameters (budget included): a session of the book's tickets starts with them. */
  params: Record<string, unknown>;
  /** The session's tickets the limit accepted in sales order. */
  initialTickets: number;
  createdAt: string;
  closedAt: string | null;
}

export interface BookTicketIn {
  numbers: number[];
  customerId?: string;
  name?: string;
}

/** One sale request as the log keeps it: every ticket offered and its answer. */
interface SaleRecord {
  at: string;
  req: string | null;
  tickets: BookTicketIn[];
  results: TicketCheck[];
}

export interface BookSale extends BookTicketIn {
  seq: number;
  soldAt: string;
}

export interface BookState {
  tickets: number;
  sold: number;
  refused: number;
  worst: { combo: string; totalPayout: number };
  headroom: number;
}

const LOG = 'sales.log';
const META = 'book.json';
const INITIAL = 'initial';

const checksum = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 16);

/** Writes a new book's folder: its tickets (the session's that `keep` marks) and `book.json` last. */
export async function createBookFolder(
  dir: string,
  meta: BookMeta,
  sourceSessionDir: string,
  keep: Uint8Array,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeTicketSubset(sourceSessionDir, join(dir, INITIAL), keep);
  await writeAtomic(join(dir, LOG), () => Promise.resolve());
  await writeBookMeta(dir, meta);
}

export function writeBookMeta(dir: string, meta: BookMeta): Promise<void> {
  return writeAtomic(join(dir, META), (fh) =>
    fh.write(JSON.stringify(meta, null, 2)).then(() => undefined),
  );
}

export function readBookMeta(dir: string): Promise<BookMeta | null> {
  return readJson<BookMeta>(join(dir, META));
}

export interface OpenBookOptions {
  workers?: number;
  tuning?: Partial<BookTuning>;
  /**
   * For a book just made from a session (nothing sold yet): the session's totals and the tickets
   * its limit refused, from which the book's totals are one analysis of the fewer tickets.
   */
  seed?: BookSeed;
}

/** An open book: its totals in memory over its folder. */
export class LiveBook {
  private sales: BookSale[] = [];
  private refusedCount = 0;
  private readonly answered = new Map<string, TicketCheck[]>();
  /** Bytes of the log applied to the totals. */
  private logBytes = 0;

  private constructor(
    readonly dir: string,
    public meta: BookMeta,
    private readonly totals: LiveBookTotals,
  ) {}

  /**
   * Opens a book from its folder: the initial tickets and every logged sale in one analysis (a
   * torn last line of the log, left by a crash mid-write, is cut first).
   */
  static async open(dir: string, options: OpenBookOptions = {}): Promise<LiveBook> {
    const meta = await readBookMeta(dir);
    if (!meta) throw new EngineError('BOOK_NOT_FOUND', 'No such book.');
    const initial = new Uint8Array(await readAligned(fileIn(join(dir, INITIAL), 'tickets')));
    const { records, bytes } = await readLog(dir, 0, true);
    const sold: number[] = [];
    for (const r of records)
      r.tickets.forEach((t, i) => r.results[i]!.accepted && sold.push(...sorted(t.numbers)));
    const tickets = new Uint8Array(initial.length + sold.length);
    tickets.set(initial);
    tickets.set(sold, initial.length);
    const game: LiveBookGame = {
      pool: meta.pool,
      payouts: meta.payouts,
      limit: meta.limit,
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.tuning ? { tuning: options.tuning } : {}),
    };
    // the seed describes the initial tickets alone: a book that has sold is analysed whole
    const seed = records.length === 0 ? options.seed : undefined;
    const book = new LiveBook(dir, meta, await LiveBookTotals.open(game, tickets, seed));
    for (const r of records) book.remember(r);
    book.logBytes = bytes;
    return book;
  }

  /**
   * Applies what other processes appended to the log since this one last read it, and takes
   * `book.json` as it now is (closed elsewhere?) — `meta` when the caller has just read it. Called
   * under the book's lock before each request.
   */
  async catchUp(meta?: BookMeta): Promise<void> {
    // the caller may have just read `book.json` (to check the owner): not read twice a request
    this.meta = meta ?? (await readBookMeta(this.dir)) ?? this.meta;
    const size = (await stat(join(this.dir, LOG))).size;
    if (size === this.logBytes) return;
    const { records, bytes } = await readLog(this.dir, this.logBytes, false);
    for (const r of records) {
      for (let i = 0; i < r.tickets.length; i++) {
        if (r.results[i]!.accepted)
          await this.totals.add(Uint8Array.from(sorted(r.tickets[i]!.numbers)));
      }
      this.remember(r);
    }
    this.logBytes = bytes;
  }

  /**
   * Checks the tickets in order against every draw, each accepted one counting for the next;
   * unless `dryRun`, keeps the accepted ones and logs the request (fsynced) before returning. Every
   * ticket is validated before anything changes.
   */
  async sell(
    tickets: BookTicketIn[],
    options: { dryRun?: boolean; requestId?: string } = {},
  ): Promise<TicketCheck[]> {
    if (this.meta.closedAt) {
      throw new EngineError('BOOK_CLOSED', 'This book is closed: it sells no more tickets.');
    }
    const numbers = tickets.map((t, i) => validTicket(t.numbers, this.meta.pool, i));
    const { dryRun = false, requestId } = options;
    if (!dryRun && requestId) {
      const earlier = this.answered.get(requestId);
      if (earlier) return earlier;
    }
    if (dryRun) return this.totals.trial(numbers);
    const results: TicketCheck[] = [];
    for (const t of numbers) results.push(await this.totals.offer(t, true));
    const record: SaleRecord = {
      at: new Date().toISOString(),
      req: requestId ?? null,
      tickets: tickets.map((t, i) => ({ ...t, numbers: Array.from(numbers[i]!) })),
      results,
    };
    await this.append(record);
    this.remember(record);
    return results;
  }

  state(): BookState {
    const worst = this.totals.worst();
    return {
      tickets: this.meta.initialTickets + this.sales.length,
      sold: this.sales.length,
      refused: this.refusedCount,
      worst,
      headroom: Math.round((this.meta.limit - worst.totalPayout) * 100) / 100,
    };
  }

  /** Sales newest first. */
  salesPage(page: number, pageSize: number): { items: BookSale[]; total: number } {
    const total = this.sales.length;
    const items: BookSale[] = [];
    for (let k = total - 1 - (page - 1) * pageSize; k >= 0 && items.length < pageSize; k--)
      items.push(this.sales[k]!);
    return { items, total };
  }

  /** Every sale in order (for a session of the book's tickets). */
  allSales(): readonly BookSale[] {
    return this.sales;
  }

  async close(): Promise<void> {
    if (this.meta.closedAt) return;
    this.meta = { ...this.meta, closedAt: new Date().toISOString() };
    await writeBookMeta(this.dir, this.meta);
  }

  get bytes(): number {
    return this.totals.bytes;
  }

  private remember(record: SaleRecord): void {
    record.tickets.forEach((t, i) => {
      if (record.results[i]!.accepted)
        this.sales.push({ ...t, seq: this.sales.length + 1, soldAt: record.at });
      else this.refusedCount++;
    });
    if (record.req) this.answered.set(record.req, record.results);
  }

  private async append(record: SaleRecord): Promise<void> {
    const json = JSON.stringify(record);
    const line = `${json}\t${checksum(json)}\n`;
    const fh = await open(join(this.dir, LOG), 'a');
    try {
      await fh.write(line);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    this.logBytes += Buffer.byteLength(line);
  }
}

/**
 * The log's whole lines from byte `from`; with `repair`, a torn or damaged tail is cut off the file
 * (only its last request can be torn: each is fsynced before the next is written).
 */
async function readLog(
  dir: string,
  from: number,
  repair: boolean,
): Promise<{ records: SaleRecord[]; bytes: number }> {
  const path = join(dir, LOG);
  const buf = await readFile(path);
  const records: SaleRecord[] = [];
  let at = from;
  while (at < buf.length) {
    const end = buf.indexOf(10, at);
    if (end < 0) break;
    const text = buf.toString('utf8', at, end);
    const tab = text.lastIndexOf('\t');
    if (tab < 0 || checksum(text.slice(0, tab)) !== text.slice(tab + 1)) break;
    records.push(JSON.parse(text.slice(0, tab)) as SaleRecord);
    at = end + 1;
  }
  if (repair && at < buf.length) {
    await truncate(path, at);
    await syncDir(dir);
  }
  return { records, bytes: at };
}

function sorted(numbers: number[]): number[] {
  return [...numbers].sort((a, b) => a - b);
}

/** Seven distinct whole numbers of the pool, ascending; else a 400 naming the ticket. */
function validTicket(numbers: number[], pool: number, index: number): Uint8Array {
  const ok =
    numbers.length === PICK &&
    numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= pool) &&
    new Set(numbers).size === PICK;
  if (!ok) {
    throw new EngineError(
      'INVALID_PARAMS',
      `Ticket ${index + 1} must have 7 different whole numbers from 1 to ${pool}.`,
      `tickets.${index}.numbers`,
    );
  }
  return Uint8Array.from(sorted(numbers));
}

/**
 * A new session folder holding the book's tickets as sold: the session's accepted rows
 * (`writeTicketSubset` of `initial/`), then one row per sale in the file's own columns (numbers,
 * customer id and name where the file has those columns), numbered on after the file's last line.
 * The rows file is a copy, never the link to the session's: rows are appended to it.
 */
export async function writeBookSession(
  bookDir: string,
  sales: readonly BookTicketIn[],
  dir: string,
): Promise<{ tickets: number; bytes: number }> {
  const initial = join(bookDir, INITIAL);
  const meta = await readBookMeta(bookDir);
  if (!meta) throw new EngineError('BOOK_NOT_FOUND', 'No such book.');
  const written = await writeTicketSubset(
    initial,
    dir,
    new Uint8Array(meta.initialTickets).fill(1),
  );
  if (sales.length === 0) return written;
  const ingest = (await readJson<IngestSummary>(fileIn(dir, 'ingest')))!;
  const rowsPath = fileIn(dir, 'rows');
  await rm(rowsPath);
  await copyFile(fileIn(initial, 'rows'), rowsPath);
  let at = (await stat(rowsPath)).size;
  const count0 = written.tickets;
  const idx0 = await readAligned(fileIn(dir, 'rowIndex'));
  const lines0 = new Uint32Array(idx0, count0 * 8, count0);
  let line = Math.max(ingest.rowsRead + 1, ...lines0) + 1;
  const count = count0 + sales.length;
  const idx = new ArrayBuffer(count * 16);
  const offsets = new Float64Array(idx, 0, count);
  const lines = new Uint32Array(idx, count * 8, count);
  const lengths = new Uint32Array(idx, count * 12, count);
  offsets.set(new Float64Array(idx0, 0, count0));
  lines.set(lines0);
  lengths.set(new Uint32Array(idx0, count0 * 12, count0));
  const tickets = new Uint8Array(count * PICK);
  tickets.set(new Uint8Array(await readAligned(fileIn(dir, 'tickets'))));
  const { columns, delimiter } = ingest;
  const where = (name: string | null) => (name ? columns.indexOf(name) : -1);
  const idAt = where(ingest.idColumn);
  const nameAt = where(ingest.nameColumn);
  const cell = (text: string) =>
    /["\r\n]/.test(text) || text.includes(delimiter) ? `"${text.replace(/"/g, '""')}"` : text;
  let text = '';
  const fh = await open(rowsPath, 'r+');
  try {
    // the file's last row may have no line ending
    const last = Buffer.alloc(1);
    if (at > 0 && (await fh.read(last, 0, 1, at - 1)).bytesRead === 1 && last[0] !== 10) {
      text += '\r\n';
      at += 2;
    }
    sales.forEach((sale, k) => {
      const numbers = sorted(sale.numbers);
      const cells = columns.map(() => '');
      if (ingest.numberColumns.kind === 'seven') {
        ingest.numberColumns.names.forEach((name, i) => (cells[where(name)] = String(numbers[i])));
      } else cells[where(ingest.numberColumns.name)] = numbers.join('-');
      if (idAt >= 0 && sale.customerId) cells[idAt] = cell(sale.customerId);
      if (nameAt >= 0 && sale.name) cells[nameAt] = cell(sale.name);
      const row = cells.join(delimiter);
      const t = count0 + k;
      offsets[t] = at;
      lengths[t] = Buffer.byteLength(row);
      lines[t] = line++;
      at += lengths[t]! + 2;
      text += `${row}\r\n`;
      tickets.set(numbers, t * PICK);
    });
    await fh.write(text, (await fh.stat()).size);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await writeAtomic(fileIn(dir, 'tickets'), (f) => f.write(tickets).then(() => undefined));
  await writeAtomic(fileIn(dir, 'rowIndex'), (f) =>
    f.write(new Uint8Array(idx)).then(() => undefined),
  );
  const summary: IngestSummary = { ...ingest, rowsRead: count, accepted: count };
  await writeAtomic(fileIn(dir, 'ingest'), (f) =>
    f.write(JSON.stringify(summary)).then(() => undefined),
  );
  return { tickets: count, bytes: tickets.length + idx.byteLength + at };
}
