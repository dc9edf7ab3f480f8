import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { memoryStore, redisStore, type LimiterStore } from '../../modules/accounts/limits';

/**
 * The portal's shared state across processes (issue #18): with `REDIS_URL`, the sign-in and
 * reset-mail counters live in Redis, so every portal process counts the same failures; without it,
 * in this process's memory as before.
 */
export interface SharedState {
  limiterStore: LimiterStore;
  /** Readiness check of the shared store (none without Redis). */
  check: (() => Promise<boolean>) | null;
  close: () => Promise<void>;
}

export function openSharedState(redisUrl: string | undefined, log: FastifyBaseLogger): SharedState {
  if (!redisUrl) return { limiterStore: memoryStore, check: null, close: async () => {} };
  const redis = new Redis(redisUrl, {
    // A request must not hang on a Redis that is down: the limiter falls back to memory at once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis retries on its own; log each new kind of failure once, not every retry.
    if (error.message === lastError) return;
    lastError = error.message;
    log.warn(
      { err: error },
      'Redis unavailable: rate limits count in this process until it is back',
    );
  });
  redis.on('ready', () => {
    lastError = '';
  });
  return {
    limiterStore: redisStore(redis),
    check: async () => (await redis.ping()) === 'PONG',
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
