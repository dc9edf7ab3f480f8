import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Power7Config } from '../../config';
import type { OpenDatabase } from '../../db/client';
import {
  ProcessBookLock,
  postgresBookLock,
  redisBookLock,
  type BookLock,
} from '../../modules/books/book-lock';
import { BookService } from '../../modules/books/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live books (issue #41 part 4). */
    books: BookService;
  }
}

/**
 * The live books, as `app.books`, with the lock that keeps one writer per book across the
 * installation's processes: Redis when REDIS_URL is set, else PostgreSQL's advisory locks when the
 * metadata lives there, else (embedded: one process) this process's queue alone (ADR 024).
 */
export const booksPlugin = fp<{ config: Power7Config; database: OpenDatabase }>(
  async function booksPlugin(app: FastifyInstance, { config, database }) {
    let lock: BookLock;
    if (config.REDIS_URL) {
      const { Redis } = await import('ioredis');
      const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
      redis.on('error', () => {});
      lock = redisBookLock(redis);
    } else if (database.driver === 'postgres') lock = postgresBookLock(database.db);
    else lock = new ProcessBookLock();
    const books = new BookService(config.STORAGE_DIR, lock, {
      ...(config.WORKER_THREADS ? { workers: config.WORKER_THREADS } : {}),
      log: app.log,
    });
    app.decorate('books', books);
    app.addHook('onReady', async () => {
      // in the background: a book asked for meanwhile waits for its own opening only
      void books.reopenAll().then(
        (count) => count > 0 && app.log.info({ books: count }, 'live books reopened'),
        (error: unknown) => app.log.error({ err: error }, 'live books could not be reopened'),
      );
    });
    app.addHook('onClose', () => books.closeAll());
  },
  { name: 'power7-books', dependencies: ['power7-sessions'] },
);
