import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Power7Config } from '../../config';
import { EmbeddedJobQueue, type JobQueue } from '../../modules/jobs/job-queue';
import { MAX_ATTEMPTS } from '../../modules/sessions/job-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where analyses are queued; the sessions plugin hands it to the job runner. */
    jobQueue: JobQueue;
  }
}

/**
 * Chooses where the analyses wait, as `app.jobQueue`: with REDIS_URL the queue many processes share
 * through Redis (BullMQ; ROLE api only queues, worker and all run jobs), else this process's own. The
 * queue runs nothing until the job runner hands it its processor. The sessions plugin closes it, before
 * the database its jobs write to.
 */
export const queuePlugin = fp<{ config: Power7Config }>(
  async function queuePlugin(app: FastifyInstance, { config }) {
    // BullMQ (and ioredis) load only when used: ~0.1 s less at every embedded start
    const queue: JobQueue = config.REDIS_URL
      ? new (await import('../../modules/jobs/bullmq-queue')).BullMqJobQueue({
          redisUrl: config.REDIS_URL,
          consume: config.ROLE !== 'api',
          lockMs: config.JOB_LOCK_MS,
          concurrency: config.JOB_CONCURRENCY,
          maxStalls: MAX_ATTEMPTS,
          log: app.log,
        })
      : new EmbeddedJobQueue(config.JOB_CONCURRENCY);
    app.decorate('jobQueue', queue);
  },
  { name: 'power7-queue' },
);
