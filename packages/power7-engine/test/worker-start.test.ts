import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startScanWorker } from '../src/analysis/analyze';

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
  it.each(['auto', 'tsx'] as const)(
    'starts and answers ready (%s)',
    async (via) => {
      expect(await firstMessage(startScanWorker(via))).toEqual({ type: 'ready', warmUp: true });
    },
    30_000,
  );

  it("skips the kernels' warm-up when started for a one-shot process (the CLI)", async () => {
    const w = startScanWorker('auto', { warmUp: false });
    expect(await firstMessage(w)).toEqual({ type: 'ready', warmUp: false });
  }, 30_000);
});
