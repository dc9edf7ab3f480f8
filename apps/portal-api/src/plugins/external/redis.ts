import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { memoryStore, redisStore, type LimiterStore } from '../../modules/accounts/limits';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where rate-limit counters live: memory, or Redis shared by every process (`REDIS_URL`). */
    limiterStore: LimiterStore;
    /** Readiness check of the shared store (null without Redis). */
    redisCheck: (() => Promise<boolean>) | null;
  }
}

/**
 * The portal's shared state across processes (issue #18): with `REDIS_URL`, the sign-in and
 * reset-mail counters live in Redis, so every portal process counts the same failures; without it,
 * in this process's memory as before. The connection closes with the app.
 */
export const redisPlugin = fp<{ url: string | undefined }>(
  async function redisPlugin(app: FastifyInstance, { url }) {
    if (!url) {
      app.decorate('limiterStore', memoryStore);
      app.decorate('redisCheck', null);
      return;
    }
    // ioredis loads only when used: less to load at every embedded start
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, {
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
      app.log.warn(
        { err: error },
        'Redis unavailable: rate limits count in this process until it is back',
      );
    });
    redis.on('ready', () => {
      lastError = '';
    });
    app.decorate('limiterStore', redisStore(redis));
    app.decorate('redisCheck', async () => (await redis.ping()) === 'PONG');
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'portal-redis' },
);
