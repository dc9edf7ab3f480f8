import path from 'node:path';
import { z } from 'zod';
import { boolVar, listVar, loadConfig, logLevelVar, portVar } from '@pa/server-kit/config';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** Every setting of the Power 7 service, read from the environment once at boot (see README "Settings"). */
export const power7ConfigSchema = z
  .object({
    HOST: z.string().default('127.0.0.1'),
    POWER7_PORT: portVar(8001),
    PORTAL_PORT: portVar(8000),
    DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
    /** A PostgreSQL server for session metadata instead of `${DATA_DIR}/power7-db` (PGlite). */
    DATABASE_URL: optionalText,
    LOG_LEVEL: logLevelVar,
    /** Browser origins allowed to call this API; unset = the web app's (PUBLIC_URL, portal port). */
    CORS_ORIGINS: optionalText,
    /** The web app's public address, as the portal's PUBLIC_URL (its origin is allowed by default). */
    PUBLIC_URL: optionalText.pipe(z.url().optional()),
    /** The portal's public keys; default: the portal's JWKS endpoint on PORTAL_PORT. */
    JWKS_URL: optionalText.pipe(z.url().optional()),
    /** A JWK set file instead of JWKS_URL (the portal writes `${DATA_DIR}/keys/jwks.json`). */
    JWKS_FILE: optionalText,
    /**
     * Seconds: past this age the list of ended sign-ins is not trusted and tokens are refused (503)
     * until it is read again; readiness fails until a first list is read. At least 3: it is read
     * every 2 s.
     */
    REVOCATION_MAX_STALENESS: z.coerce.number().int().min(3).max(3600).default(30),
    /** The portal's access-token lifetime (same name and default): how far back ended sign-ins matter. */
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(1).default(900),
    /**
     * Disk each user's live sessions may take (uploads and results), in MB; a job queued or running
     * counts what it may write at most (ADR 019). 10 GiB: a P=49 analysis reserves ~2.9 GB while in
     * flight (its results with every draw qualifying), so this holds three of them.
     */
    STORAGE_QUOTA_MB: z.coerce.number().positive().default(10_240),
    /**
     * Analyses one user may have queued or running at once (uploads and reruns); past it 429 with
     * Retry-After (ADR 019).
     */
    JOBS_PER_USER: z.coerce.number().int().min(1).max(1_000).default(2),
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      // 1 GiB: a 10,000,000-ticket CSV is ~580 MB (issue #17); the file streams to disk, never held whole.
      .default(1024 * 1024 * 1024),
    JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    /** Worker threads of one analysis; 0 = one per CPU core. */
    WORKER_THREADS: z.coerce.number().int().min(0).max(256).default(0),
    /**
     * Read a CSV upload on the worker threads while it arrives, so the job finds it read (with the
     * process's own queue only: a shared queue's job may run elsewhere).
     */
    READ_DURING_UPLOAD: boolVar(true),
    /** `GET /metrics` (Prometheus) on this service's port; false = 404 (docs/operations.md). */
    METRICS: boolVar(true),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(24),
    /**
     * How long `POST …/limit/` waits for its run before answering 202 with the run's address and
     * progress (a run that ends sooner is answered 200 in the request, as before); 0: no wait, a run
     * the request starts is always answered 202.
     */
    LIMIT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
    /** Memory budget for the engine tables of finished sessions kept for fast queries. */
    RESULT_CACHE_MB: z.coerce.number().int().min(1).default(512),
    /**
     * Redis for the shared job queue (BullMQ): many API and worker processes on one installation.
     * Unset: jobs run in this process's own queue (one process per data folder).
     */
    REDIS_URL: optionalText.pipe(z.url().optional()),
    /** What this process does: answer the API and run jobs (all), only the API, or only jobs. */
    ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    /** The sessions' folders (uploads and results); every process must reach it. */
    STORAGE_DIR: optionalText,
    /** With REDIS_URL: after how long a job of a worker that died is run by another. */
    JOB_LOCK_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
    /** Heap of the worker thread that reads one XLSX upload (a hostile workbook fails its own read). */
    XLSX_MAX_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(1024),
    /** Time one XLSX read may take. */
    XLSX_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  })
  .refine((config) => config.ROLE === 'all' || config.REDIS_URL, {
    path: ['ROLE'],
    message: 'ROLE=api or ROLE=worker needs REDIS_URL (the queue the processes share).',
  })
  .transform((config) => ({
    ...config,
    STORAGE_DIR: config.STORAGE_DIR ?? path.join(config.DATA_DIR, 'power7'),
    CORS_ORIGINS: config.CORS_ORIGINS
      ? listVar([]).parse(config.CORS_ORIGINS)
      : [
          ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
          `http://127.0.0.1:${config.PORTAL_PORT}`,
          `http://localhost:${config.PORTAL_PORT}`,
        ].filter((origin, index, all) => all.indexOf(origin) === index),
    JWKS_URL: config.JWKS_URL ?? `http://127.0.0.1:${config.PORTAL_PORT}/api/.well-known/jwks.json`,
  }));

export type Power7Config = z.infer<typeof power7ConfigSchema>;

export const loadPower7Config = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(power7ConfigSchema, env);
