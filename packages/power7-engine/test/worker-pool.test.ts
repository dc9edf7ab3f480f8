import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analyze';
import { closeScanWorkers, idleScanWorkerCount, prestartScanWorkers } from '../src/workers';

afterAll(closeScanWorkers);

// pool 9: 36 draws; every ticket leaves out two numbers
const tickets = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 8, 3, 4, 5, 6, 7, 8, 9]);

describe('scan worker pool', () => {
  it('prestarted workers wait idle and serve the next analysis, which gives them back', async () => {
    const n = Math.min(2, os.availableParallelism());
    prestartScanWorkers(n);
    expect(idleScanWorkerCount()).toBe(n);
    prestartScanWorkers(n); // already there: starts none
    expect(idleScanWorkerCount()).toBe(n);
    const res = await analyzeTickets(tickets, 3, {
      pool: 9,
      payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
      budget: { type: 'fixed', budget: 1e6 },
      workers: n,
    });
    expect(res.draws).toBe(36);
    expect(res.qualified).toBe(36);
    expect(idleScanWorkerCount()).toBe(n);
    await closeScanWorkers();
    expect(idleScanWorkerCount()).toBe(0);
  });
});
