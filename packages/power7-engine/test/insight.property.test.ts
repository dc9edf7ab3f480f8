import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { naiveAnalysis } from './reference';
import { ticketArb } from './arbitraries';

/**
 * The insight answers (covered, within, quantiles, exceedance, expected excess, jackpot draws) equal
 * a count over every draw done the obvious way, on flat files and on files where one ticket is bought
 * hundreds of times (a "hot" combination: one draw pays far above the rest, so the distribution's bins
 * are wide and budgets fall inside them).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-insight-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const money = fc.oneof(
  fc.integer({ min: 0, max: 2000 }),
  fc.integer({ min: 0, max: 200000 }).map((c) => c / 100),
);

const caseArb = fc.integer({ min: 9, max: 12 }).chain((pool) =>
  fc.record({
    pool: fc.constant(pool),
    distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 30 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 200 }),
    /** Copies of the first ticket: 0 (a flat file) or hundreds (a hot combination). */
    hot: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 900 })),
    payouts: fc.record({
      3: money,
      4: money,
      5: money,
      6: money,
      7: fc.oneof(money, fc.integer({ min: 100_000, max: 5_000_000 })),
    }),
    budgetPicks: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
    rangePicks: fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
      { maxLength: 4 },
    ),
  }),
);

/** `a / b` rounded half up, for non-negative bigints. */
const divRound = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

describe('insight', () => {
  it('equals an independent all-draws count, at any budget and range', async () => {
    let wideBins = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const tickets = c.picks.map((p) => c.distinct[p % c.distinct.length]!);
        for (let i = 0; i < c.hot; i++) tickets.push(c.distinct[0]!);
        const payouts = c.payouts;
        if (![3, 4, 5, 6, 7].some((m) => payouts[m as 3] > 0)) return;
        const draws = naiveAnalysis(tickets, c.pool, payouts);
        const totals = draws.map((d) => d.totalCents).sort((a, b) => a - b);
        const n = totals.length;
        // budgets: at, just below and between actual totals, and beyond both ends
        const at = (q: number) => totals[Math.min(n - 1, Math.floor(q * n))]!;
        const budgets = [
          0,
          ...c.budgetPicks.flatMap((q) => [at(q), Math.max(0, at(q) - 1), at(q) + 1]),
          totals[n - 1]! + 100,
        ].map((cents) => cents / 100);
        const ranges = c.rangePicks.map(([a, b]) => {
          const [lo, hi] = [at(a), at(b)].sort((x, y) => x - y);
          return { min: lo! / 100, max: hi! / 100 };
        });

        const caseDir = await mkdtemp(join(dir, 'case-'));
        const csv = `n1,n2,n3,n4,n5,n6,n7\n${tickets.map((t) => t.join(',')).join('\n')}\n`;
        await writeFile(join(caseDir, 'upload.csv'), csv);
        const sessionDir = join(caseDir, 's');
        await ingestFile({ sourcePath: join(caseDir, 'upload.csv'), sessionDir, pool: c.pool });
        await runAnalysis({
          sessionDir,
          payouts,
          budget: { type: 'fixed', budget: budgets[1] ?? 0 },
          workers: 1,
        });
        const session = await openSession(sessionDir);
        const answer = await session.insight({ budgets, ranges });
        session.close();
        if (answer.max - answer.min > 65_536) wideBins++;

        expect(answer.draws).toBe(n);
        expect(answer.jackpotDraws).toBe(new Set(tickets.map((t) => t.join('-'))).size);
        expect(answer.jackpotShare).toBe(answer.jackpotDraws / n);
        for (const q of ['50', '90', '95', '99', '99.9'] as const) {
          const k = Math.max(1, Math.ceil((Number(q) * 10 * n) / 1000));
          expect(answer.quantiles[q], `q${q}`).toBe(totals[k - 1]! / 100);
        }
        for (const [i, b] of budgets.entries()) {
          const bc = Math.round(b * 100);
          const covered = totals.filter((t) => t <= bc).length;
          const excess = totals.reduce((s, t) => s + BigInt(Math.max(0, t - bc)), 0n);
          expect(answer.budgets[i], `budget ${b}`).toEqual({
            budget: b,
            covered,
            share: covered / n,
            exceedProbability: (n - covered) / n,
            expectedExcess: Number(divRound(excess, BigInt(n))) / 100,
          });
        }
        for (const [i, r] of ranges.entries()) {
          const within = totals.filter(
            (t) => t >= Math.round(r.min * 100) && t <= Math.round(r.max * 100),
          ).length;
          expect(answer.ranges[i]).toEqual({ ...r, within, share: within / n });
        }
        await rm(caseDir, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
    // the cases must reach budgets inside wide bins (read from disk), not only one-value bins
    expect(wideBins).toBeGreaterThan(5);
  }, 300_000);
});
