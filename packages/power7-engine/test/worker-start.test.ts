import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startScanWorker } from '../src/analysis/analyze';
import { workerEntry } from '../src/parallel/worker-entry';

/** The worker's first message; the worker is terminated either way. */
async function firstMessage(w: Worker): Promise<unknown> {
  try {
    return await new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
  } finally {
    await w.terminate();
  }
}

describe('scan worker start', () => {
  it('starts from the sources through the tsx bootstrap beside each worker', () => {
    for (const name of ['scan', 'winners', 'xlsx'] as const) {
      const entry = workerEntry(name);
      expect(entry).toBeInstanceOf(URL);
      expect(fileURLToPath(entry)).toMatch(new RegExp(`src/parallel/${name}-worker\\.mjs$`));
    }
  });

  it('starts and answers ready, kernels warmed', async () => {
    expect(await firstMessage(startScanWorker())).toEqual({ type: 'ready', warmUp: true });
  }, 30_000);

  it("skips the kernels' warm-up when started for a one-shot process (the CLI)", async () => {
    const w = startScanWorker({ warmUp: false });
    expect(await firstMessage(w)).toEqual({ type: 'ready', warmUp: false });
  }, 30_000);
});
