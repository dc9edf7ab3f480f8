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
    /** Chances of exceeding and shortfall levels in thousandths; expected excesses in cents. */
    exceedPicks: fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 4 }),
    levelPicks: fc.array(fc.integer({ min: 1, max: 999 }), { maxLength: 3 }),
    excessPicks: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
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

        // expected excesses (cents): zero, at budgets' exact excesses and between them
        const excessSum = (bc: number) => totals.reduce((sum, t) => sum + Math.max(0, t - bc), 0);
        const excessCents = [
          0,
          ...c.excessPicks.flatMap((q) => {
            const exact = excessSum(at(q)) / n;
            return [Math.floor(exact), Math.ceil(exact)];
          }),
        ];
        const exceedTargets = c.exceedPicks.map((a) => a / 1000);
        const shortfallLevels = c.levelPicks.map((a) => a / 1000);
        const excessTargets = excessCents.map((e) => e / 100);

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
        const answer = await session.insight({
          budgets,
          ranges,
          exceedTargets,
          excessTargets,
          shortfallLevels,
        });
        session.close();
        if (answer.max - answer.min > 65_536) wideBins++;

        expect(answer.draws).toBe(n);
        expect(answer.jackpotDraws).toBe(new Set(tickets.map((t) => t.join('-'))).size);
        expect(answer.jackpotShare).toBe(answer.jackpotDraws / n);
        // q in thousandths of a percent: the ⌈q·n/100⌉-th smallest total
        for (const [q, milli] of [
          ['50', 50_000],
          ['90', 90_000],
          ['95', 95_000],
          ['99', 99_000],
          ['99.9', 99_900],
          ['99.99', 99_990],
          ['99.999', 99_999],
        ] as const) {
          const k = Math.max(1, Number((BigInt(milli) * BigInt(n) + 99_999n) / 100_000n));
          expect(answer.quantiles[q], `q${q}`).toBe(totals[k - 1]! / 100);
        }
        for (const [i, a] of c.exceedPicks.entries()) {
          const allowed = Math.floor((a * n) / 1000);
          const limit = totals[n - allowed - 1]!;
          expect(answer.limits[i], `exceed ${a}‰`).toEqual({
            exceedProbability: a / 1000,
            budget: limit / 100,
            exceeding: totals.filter((t) => t > limit).length,
          });
          expect(answer.limits[i]!.exceeding).toBeLessThanOrEqual(allowed);
        }
        for (const [i, target] of excessCents.entries()) {
          // the smallest whole-cent budget whose excess sum is within target × n, by bisection
          let lo = 0;
          let hi = totals[n - 1]!;
          while (lo < hi) {
            const mid = Math.floor((lo + hi) / 2);
            if (excessSum(mid) <= target * n) hi = mid;
            else lo = mid + 1;
          }
          expect(answer.excessLimits[i], `excess ${target}c`).toEqual({
            expectedExcess: target / 100,
            budget: lo / 100,
          });
        }
        for (const [i, a] of c.levelPicks.entries()) {
          const k = Math.ceil(((1000 - a) * n) / 1000);
          const largest = totals.slice(n - k).reduce((sum, t) => sum + BigInt(t), 0n);
          expect(answer.shortfall[i], `shortfall ${a}‰`).toEqual({
            level: a / 1000,
            draws: k,
            value: Number(divRound(largest, BigInt(k))) / 100,
          });
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
            exceeding: n - covered,
            meanOvershoot: n > covered ? Number(divRound(excess, BigInt(n - covered))) / 100 : null,
          });
        }
        for (const [i, r] of ranges.entries()) {
          const within = totals.filter(
            (t) => t >= Math.round(r.min * 100) && t <= Math.round(r.max * 100),
          ).length;
          const below = totals.filter((t) => t < Math.round(r.min * 100)).length;
          const above = totals.filter((t) => t > Math.round(r.max * 100)).length;
          expect(answer.ranges[i]).toEqual({ ...r, within, share: within / n, below, above });
        }
        await rm(caseDir, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
    // the cases must reach budgets inside wide bins (read from disk), not only one-value bins
    expect(wideBins).toBeGreaterThan(5);
  }, 300_000);
});
