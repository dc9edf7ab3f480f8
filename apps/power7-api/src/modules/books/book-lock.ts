import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { AppError } from '@pa/server-kit/errors';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { Power7Db } from '../../db/client';

/**
 * One writer per live book (ADR 024): a request on a book runs alone. Within a process a queue per
 * book; across processes, a lock every process on the installation sees — in Redis when REDIS_URL is
 * set (SET NX PX, renewed while held: it expires with a holder that died), else a PostgreSQL
 * advisory lock held by the request's transaction (released when its connection ends). The embedded
 * database (PGlite) is one process's: the queue is enough.
 */
export interface BookLock {
  run<T>(bookId: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long a request waits for another process's hold on the same book before a 503. */
const WAIT_MS = 30_000;

/** Requests on one book in this process, one after the other. */
export class ProcessBookLock implements BookLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly shared?: (bookId: string, work: () => Promise<unknown>) => Promise<unknown>,
  ) {}

  run<T>(bookId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(bookId) ?? Promise.resolve();
    const guarded = this.shared ? () => this.shared!(bookId, work) as Promise<T> : work;
    const mine = before.then(guarded, guarded);
    const tail = mine.catch(() => undefined);
    this.tails.set(bookId, tail);
    void tail.then(() => {
      if (this.tails.get(bookId) === tail) this.tails.delete(bookId);
    });
    return mine;
  }

  async close(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** The Redis lock: held for the request, renewed every third of its time to live. */
export function redisBookLock(redis: Redis, ttlMs = 10_000): BookLock {
  const lock = new ProcessBookLock(async (bookId, work) => {
    const key = `power7:book-lock:${bookId}`;
    const token = randomUUID();
    const deadline = Date.now() + WAIT_MS;
    let pause = 2;
    while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw busy();
      await sleep(pause);
      pause = Math.min(50, pause * 2);
    }
    const renew = setInterval(() => {
      void redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined);
    }, ttlMs / 3);
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
  });
  return {
    run: (bookId, work) => lock.run(bookId, work),
    close: async () => {
      await lock.close();
      redis.disconnect();
    },
  };
}

/** The PostgreSQL lock: an advisory lock of the request's transaction, keyed by the book. */
export function postgresBookLock(db: Power7Db): BookLock {
  return new ProcessBookLock((bookId, work) =>
    db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${WAIT_MS}ms'`));
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`power7-book:${bookId}`}, 0))`,
      );
      return work();
    }),
  );
}

function busy(): AppError {
  return new AppError(
    ErrorCode.SERVICE_UNAVAILABLE,
    'The book is busy with another request for too long; try again.',
  );
}
