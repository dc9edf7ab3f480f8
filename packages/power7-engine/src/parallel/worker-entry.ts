import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The engine's worker threads, each the module `parallel/<name>-worker.ts`. */
export type WorkerName = 'scan' | 'winners' | 'xlsx';

/**
 * In the compiled services and CLI: the folder of the bundle, where `scripts/build-services.mjs`
 * compiles every worker as `<name>-worker.cjs`. Undeclared when running from the sources.
 */
declare const __PA_WORKERS_DIR__: string | undefined;

/**
 * The file a worker thread starts from, the one rule for every worker. Built: `<name>-worker.cjs`
 * beside the bundle, plain JavaScript. From the sources (tsx, Vitest): `<name>-worker.mjs`, which
 * registers tsx in the thread (a thread does not inherit its parent's loader hooks) and imports
 * `<name>-worker.ts`.
 */
export function workerEntry(name: WorkerName): string | URL {
  return typeof __PA_WORKERS_DIR__ === 'string'
    ? join(__PA_WORKERS_DIR__, `${name}-worker.cjs`)
    : new URL(`./${name}-worker.mjs`, import.meta.url);
}

/** Starts one thread of the engine's worker `name` (see `workerEntry`). */
export function startWorker(name: WorkerName, options?: WorkerOptions): Worker {
  return new Worker(workerEntry(name), options);
}
