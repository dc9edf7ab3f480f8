import type { Worker } from 'node:worker_threads';
import type { ScanWorkerData } from './scan-worker';
import { startWorker } from './worker-entry';

/**
 * Scan workers started before the engine's modules are loaded (the CLI's first step,
 * `cli/early-start.ts`): this module imports nothing of the engine, so the workers' own start (a
 * thread, an isolate, their bundle: ~50 ms) runs while the rest of the CLI is still being loaded.
 * The pool (`workers.ts`) adopts them as idle workers at its first use.
 */
const early: Worker[] = [];

/** Starts `n` scan workers without their warm-up (one analysis and the process ends), unref'd. */
export function startEarlyScanWorkers(n: number): void {
  for (let i = 0; i < n; i++) {
    const workerData: ScanWorkerData = { warmUp: false };
    const w = startWorker('scan', { workerData });
    // never holds the process up (a command that fails on its flags); not handed out once gone
    w.unref();
    w.once('exit', () => {
      const at = early.indexOf(w);
      if (at !== -1) early.splice(at, 1);
    });
    early.push(w);
  }
}

/** The workers started early and not yet taken (the pool's, from now on). */
export function takeEarlyScanWorkers(): Worker[] {
  return early.splice(0);
}
