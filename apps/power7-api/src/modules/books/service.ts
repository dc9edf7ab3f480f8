import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { BookView } from '@pa/contracts/power7-books';
import {
  createBookFolder,
  EngineError,
  LiveBook,
  readBookMeta,
  type BookMeta,
  type BookSeed,
  type BookTicketIn,
  type TicketCheck,
} from '@pa/power7-engine/session-store';
import type { SessionRow } from '../../db/schema';
import type { Owner } from '../sessions/state';
import type { BookLock } from './book-lock';
import { booksRoot } from './book-folders';

/**
 * The live books of one installation (issue #41 part 4, ADR 024): each a folder under the storage
 * root (`store/book-store.ts`), open in memory once asked for (after a restart, at its first
 * request), every request run alone on its book (`BookLock`), the log read again first so that a
 * sale another process made counts.
 */
export class BookService {
  private readonly open = new Map<string, Promise<LiveBook>>();
  readonly root: string;

  constructor(
    storageRoot: string,
    private readonly lock: BookLock,
    private readonly options: { workers?: number; log: FastifyBaseLogger },
  ) {
    this.root = booksRoot(storageRoot);
  }

  /** A book of the session's tickets that `keep` marks (those a limit accepts in sales order). */
  async create(
    owner: Owner,
    source: { row: SessionRow; dir: string; keep: Uint8Array; seed?: BookSeed },
    limit: number,
    name?: string,
  ): Promise<BookView> {
    const id = uuidv7();
    const dir = join(this.root, id);
    const { row } = source;
    const meta: BookMeta = {
      id,
      name:
        name ??
        `${row.name ?? row.originalName ?? 'Session'} · limit ${limit.toLocaleString('en')}`,
      owner,
      session: row.id,
      pool: row.params.pool_size,
      payouts: row.params.payouts,
      ...(row.params.currency ? { currency: row.params.currency } : {}),
      limit,
      params: row.params,
      initialTickets: source.keep.reduce((n, k) => n + k, 0),
      createdAt: new Date().toISOString(),
      closedAt: null,
    };
    await mkdir(this.root, { recursive: true });
    await createBookFolder(dir, meta, source.dir, source.keep);
    // opened here from the session's totals (nobody else knows the book yet)
    void this.load(id, source.seed);
    return this.withBook(owner, id, (book) => Promise.resolve(view(book)));
  }

  get(owner: Owner, id: string): Promise<BookView> {
    return this.withBook(owner, id, (book) => Promise.resolve(view(book)));
  }

  /** The caller's books, newest first (each opened to tell its state). */
  async list(
    owner: Owner,
    page: number,
    pageSize: number,
  ): Promise<{ items: BookView[]; total: number }> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const metas = await Promise.all(
      names.map((n) => readBookMeta(join(this.root, n)).catch(() => null)),
    );
    const mine = metas
      .filter((m): m is BookMeta => !!m && sameOwner(m, owner))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const slice = mine.slice((page - 1) * pageSize, page * pageSize);
    const items = await Promise.all(slice.map((m) => this.get(owner, m.id)));
    return { items, total: mine.length };
  }

  /** Checks (dry run) or sells tickets in order: each answer, and the book after them. */
  sell(
    owner: Owner,
    id: string,
    tickets: BookTicketIn[],
    options: { dryRun?: boolean; requestId?: string },
  ): Promise<BookView & { results: TicketCheck[]; dryRun: boolean }> {
    return this.withBook(owner, id, async (book) => {
      const results = await book.sell(tickets, options);
      return { ...view(book), results, dryRun: options.dryRun ?? false };
    });
  }

  sales(owner: Owner, id: string, page: number, pageSize: number) {
    return this.withBook(owner, id, (book) => Promise.resolve(book.salesPage(page, pageSize)));
  }

  close(owner: Owner, id: string): Promise<BookView> {
    return this.withBook(owner, id, async (book) => {
      await book.close();
      return view(book);
    });
  }

  /** The book's folder and sales, for a session of its tickets. */
  contents(owner: Owner, id: string) {
    return this.withBook(owner, id, (book) =>
      Promise.resolve({ dir: book.dir, meta: book.meta, sales: [...book.allSales()] }),
    );
  }

  /** Opens every book still selling, one after the other (after a start: their first sale finds them open). */
  async reopenAll(): Promise<number> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    let opened = 0;
    for (const name of names) {
      const meta = await readBookMeta(join(this.root, name)).catch(() => null);
      if (!meta || meta.closedAt) continue;
      await this.load(meta.id);
      opened++;
    }
    return opened;
  }

  async closeAll(): Promise<void> {
    await this.lock.close();
    this.open.clear();
  }

  /**
   * Runs `work` alone on the caller's book: another's (or none) is 404. A failure that may leave the
   * book's memory ahead of its log (a write that failed) drops it: the next request reads it again.
   */
  private withBook<T>(owner: Owner, id: string, work: (book: LiveBook) => Promise<T>): Promise<T> {
    return this.lock.run(id, async () => {
      const meta = /^[0-9a-f-]{36}$/.test(id) ? await readBookMeta(join(this.root, id)) : null;
      if (!meta || !sameOwner(meta, owner))
        throw new EngineError('BOOK_NOT_FOUND', 'No such book.');
      const book = await this.load(id);
      try {
        await book.catchUp(meta);
        return await work(book);
      } catch (error) {
        if (!(error instanceof EngineError)) {
          this.open.delete(id);
          this.options.log.error(
            { err: error, book: id },
            'live book dropped from memory after a failure',
          );
        }
        throw error;
      }
    });
  }

  private load(id: string, seed?: BookSeed): Promise<LiveBook> {
    let book = this.open.get(id);
    if (!book) {
      const opening = LiveBook.open(join(this.root, id), {
        ...(this.options.workers ? { workers: this.options.workers } : {}),
        ...(seed ? { seed } : {}),
      });
      opening.catch(() => this.open.delete(id));
      this.open.set(id, opening);
      book = opening;
    }
    return book;
  }
}

const sameOwner = (meta: BookMeta, owner: Owner) =>
  meta.owner.userId === owner.userId && meta.owner.companyId === owner.companyId;

function view(book: LiveBook): BookView {
  const { meta } = book;
  const state = book.state();
  return {
    _id: meta.id,
    name: meta.name,
    session: meta.session,
    pool: meta.pool,
    payouts: meta.payouts,
    ...(meta.currency ? { currency: meta.currency } : {}),
    limit: meta.limit,
    status: meta.closedAt ? 'closed' : 'open',
    tickets: state.tickets,
    sold: state.sold,
    refused: state.refused,
    worst: state.worst,
    headroom: state.headroom,
    createdAt: meta.createdAt,
    closedAt: meta.closedAt,
  };
}
