import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import {
  closeScanWorkers,
  idleScanWorkerCount,
  prestartScanWorkers,
} from '../src/parallel/workers';
import { startEarlyScanWorkers } from '../src/parallel/early-workers';

afterAll(closeScanWorkers);

// pool 9: 36 draws; every ticket leaves out two numbers
const tickets = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 8, 3, 4, 5, 6, 7, 8, 9]);
const GAME = {
  pool: 9,
  payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
  budget: { type: 'fixed' as const, budget: 1e6 },
};

describe('scan worker pool', () => {
  it('prestarted workers wait idle and serve the next analysis, which gives them back', async () => {
    const n = Math.min(2, os.availableParallelism());
    prestartScanWorkers(n);
    expect(idleScanWorkerCount()).toBe(n);
    prestartScanWorkers(n); // already there: starts none
    expect(idleScanWorkerCount()).toBe(n);
    const res = await analyzeTickets(tickets, 3, {
      ...GAME,
      workers: n,
    });
    expect(res.draws).toBe(36);
    expect(res.qualified).toBe(36);
    expect(idleScanWorkerCount()).toBe(n);
    await closeScanWorkers();
    expect(idleScanWorkerCount()).toBe(0);
  });

  it("workers started before the pool loaded (the CLI's first step) become its idle ones", async () => {
    const n = Math.min(2, os.availableParallelism());
    startEarlyScanWorkers(n);
    // adopted at the pool's first use: they are the idle ones, none started besides
    expect(idleScanWorkerCount()).toBe(n);
    prestartScanWorkers(n);
    expect(idleScanWorkerCount()).toBe(n);
    const res = await analyzeTickets(tickets, 3, {
      ...GAME,
      workers: n,
      keepDraws: false,
      topDraws: 5,
      sumDistribution: false,
      exactTotals: true,
    });
    expect(res.qualified).toBe(36);
    expect(res.top).toHaveLength(5);
    expect(idleScanWorkerCount()).toBe(n);
    await closeScanWorkers();
    expect(idleScanWorkerCount()).toBe(0);
  });

  it('an analysis cancelled while its tables are being built leaves the next one intact', async () => {
    const pool = 30;
    const count = 2000;
    const many = new Uint8Array(count * 7);
    for (let i = 0; i < count; i++)
      many.set([1 + (i % 3), 5, 9, 12 + (i % 7), 20, 25, 26 + (i % 5)], i * 7);
    const opts = {
      pool,
      payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
      budget: { type: 'fixed', budget: 40 },
      workers: 2,
    } as const;
    const reference = await analyzeTickets(many, count, opts);
    const ac = new AbortController();
    const cancelled = analyzeTickets(many, count, {
      ...opts,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.phase === 'building') ac.abort();
      },
    });
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    const again = await analyzeTickets(many, count, opts);
    expect(again.qualified).toBe(reference.qualified);
    expect(again.stats).toEqual(reference.stats);
    expect(again.table.chunks.flatMap((c) => Array.from(c.ranks))).toEqual(
      reference.table.chunks.flatMap((c) => Array.from(c.ranks)),
    );
  });
});
