import { describe, expect, it } from 'vitest';
import { startScanWorker } from '../src/analyze';

describe('scan worker start', () => {
  it.each(['auto', 'tsx'] as const)(
    'starts and answers ready (%s)',
    async (via) => {
      const w = startScanWorker(via);
      try {
        const msg = await new Promise((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', reject);
        });
        expect(msg).toEqual({ type: 'ready', warmUp: true });
      } finally {
        await w.terminate();
      }
    },
    30_000,
  );

  it("skips the kernels' warm-up when started for a one-shot process (the CLI)", async () => {
    const w = startScanWorker('auto', { warmUp: false });
    try {
      const msg = await new Promise((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      });
      expect(msg).toEqual({ type: 'ready', warmUp: false });
    } finally {
      await w.terminate();
    }
  }, 30_000);
});
