import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { prestartScanWorkers } from '@pa/power7-engine/session-store';
import { AuditLog } from '../../modules/audit/audit-log';
import type { Power7Config } from '../../config';
import type { OpenDatabase } from '../../db/client';
import type { JobQueue } from '../../modules/jobs/job-queue';
import { SessionRepository } from '../../modules/sessions/repository';
import { ResultCache } from '../../modules/sessions/result-cache';
import { StorageQuota } from '../../modules/sessions/quota';
import { Power7Sessions } from '../../modules/sessions/service';
import type { UploadOptions } from '../../modules/sessions/upload';

export interface Power7Internals {
  sessions: Power7Sessions;
  queue: JobQueue;
  cache: ResultCache;
  database: OpenDatabase;
  /** How uploads are received: read while they arrive or not. */
  uploads: UploadOptions;
  /** Disk each user's sessions may take (STORAGE_QUOTA_MB). */
  quota: StorageQuota;
  audit: AuditLog;
}

declare module 'fastify' {
  interface FastifyInstance {
    power7: Power7Internals;
  }
}

/**
 * Storage and jobs of the Power 7 sessions: the opened metadata database, the sessions root, the
 * result cache and the job runner, as `app.power7`; expired sessions are swept, jobs cut off by a stop
 * are run again once the app is ready, and the database is closed with the app.
 */
export const sessionsPlugin = fp<{ config: Power7Config; database: OpenDatabase }>(
  async function sessionsPlugin(app: FastifyInstance, { config, database }) {
    const cache = new ResultCache(config.RESULT_CACHE_MB * 1024 * 1024);
    // built by the queue plugin (plugins/app/queue.ts); the job runner takes it over
    const queue = app.jobQueue;
    const sessions = new Power7Sessions(new SessionRepository(database.db), cache, queue, {
      root: config.STORAGE_DIR,
      workers: config.WORKER_THREADS,
      xlsx: { maxMemoryMb: config.XLSX_MAX_MEMORY_MB, maxSeconds: config.XLSX_MAX_SECONDS },
      ttlHours: config.SESSION_TTL_HOURS,
      log: app.log,
      storageQuotaBytes: config.STORAGE_QUOTA_MB * 1024 * 1024,
      limitWaitMs: config.LIMIT_WAIT_MS,
    });
    await sessions.checkStorage();
    // Only a job of this process can take over what its upload read. The reads held in memory (being
    // received, or waiting for their job) are bounded: one per job running and one for the next; the
    // files of more uploads at once wait on disk, as without the setting.
    const memory = sessions.memory;
    const heldReads = config.JOB_CONCURRENCY + 1;
    const uploads: UploadOptions =
      config.READ_DURING_UPLOAD && queue.local
        ? {
            readWhileArriving: {
              workers: config.WORKER_THREADS || availableParallelism(),
              admit: () => {
                if (memory.receiving + memory.arrived.size >= heldReads) return null;
                memory.receiving++;
                return () => memory.receiving--;
              },
            },
          }
        : {};
    const quota = new StorageQuota(
      config.STORAGE_QUOTA_MB * 1024 * 1024,
      config.JOBS_PER_USER,
      (owner) => sessions.usageOf(owner),
    );
    const audit = new AuditLog(database.db);
    app.decorate('power7', { sessions, queue, cache, database, uploads, quota, audit });

    // Expired sessions go with their files: once at start, then every 10 minutes (or sooner for short TTLs).
    const sweepEvery = Math.min(600_000, Math.max(1_000, config.SESSION_TTL_HOURS * 3_600_000));
    const sweep = (orphanAgeMs?: number) =>
      sessions
        .sweep(new Date(), orphanAgeMs)
        .catch((error: unknown) => app.log.warn({ err: error }, 'sweep failed'));
    const sweeper = setInterval(() => void sweep(), sweepEvery);
    sweeper.unref();

    const runsJobs = config.ROLE !== 'api';
    app.addHook('onReady', async () => {
      // the first analysis finds its worker threads started and their kernels warmed
      if (runsJobs && config.WORKER_THREADS !== 1)
        prestartScanWorkers(config.WORKER_THREADS || undefined);
      // Alone, before listening no upload can be in progress: a folder without a session row is a
      // leftover now. With other processes on the same storage, one of them may be receiving it.
      await sweep(queue.local ? 0 : undefined);
      // A job cut off by a crash or a stop is run again.
      if (runsJobs) {
        const recovered = await sessions.jobs.recover();
        if (recovered) app.log.info({ recovered }, 'Power 7 jobs re-queued after a restart');
      }
    });
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await queue.close();
      cache.clear();
      await database.close();
    });
  },
  { name: 'power7-sessions', dependencies: ['power7-queue'] },
);
