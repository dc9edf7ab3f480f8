import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capRun, limitRun } from '../src/analysis/liability';
import type { Payouts } from '../src/core/model';
import { moneyArb, ticketArb } from './arbitraries';

/**
 * The liability limit in sales order and the cap per combination equal the obvious ticket-by-ticket
 * check over every draw: on flat files and on files with hot combinations bought many times, at
 * limits from below the smallest payout to above the worst draw.
 */

function* everyDraw(pool: number, from = 1, picked: number[] = []): Generator<number[]> {
  if (picked.length === 7) {
    yield picked;
    return;
  }
  for (let n = from; n <= pool - (6 - picked.length); n++)
    yield* everyDraw(pool, n + 1, [...picked, n]);
}

const cents = (amount: number) => Math.round(amount * 100);
const lexLess = (a: number[], b: number[]) => {
  for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** Ticket by ticket: refuse one that would take any draw past the limit. */
function naiveSell(tickets: number[][], pool: number, payouts: Payouts, limitCents: number) {
  const draws = [...everyDraw(pool)];
  const totals = draws.map(() => 0);
  const pay = (t: number[], d: number[]) => {
    const m = t.filter((n) => d.includes(n)).length;
    return m >= 3 ? cents(payouts[m as 3]) : 0;
  };
  const refused: { index: number; draw: string; total: number }[] = [];
  tickets.forEach((t, index) => {
    let worst = -1;
    let worstTotal = -1;
    draws.forEach((d, i) => {
      const total = totals[i]! + pay(t, d);
      if (
        total > limitCents &&
        (total > worstTotal || (total === worstTotal && lexLess(d, draws[worst]!)))
      ) {
        worst = i;
        worstTotal = total;
      }
    });
    if (worst >= 0) refused.push({ index, draw: draws[worst]!.join('-'), total: worstTotal });
    else draws.forEach((d, i) => (totals[i] = totals[i]! + pay(t, d)));
  });
  let worstAfter = 0;
  totals.forEach((total, i) => {
    if (total > totals[worstAfter]!) worstAfter = i;
  });
  return {
    refused,
    worstAfter: { combo: draws[worstAfter]!.join('-'), totalPayout: totals[worstAfter]! / 100 },
  };
}

function naiveWorst(tickets: number[][], pool: number, payouts: Payouts) {
  let best = { combo: '', total: -1 };
  for (const d of everyDraw(pool)) {
    let total = 0;
    for (const t of tickets) {
      const m = t.filter((n) => d.includes(n)).length;
      if (m >= 3) total += cents(payouts[m as 3]);
    }
    if (total > best.total) best = { combo: d.join('-'), total };
  }
  return best;
}

const caseArb = fc.integer({ min: 9, max: 11 }).chain((pool) =>
  fc.record({
    pool: fc.constant(pool),
    distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 12 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 80 }),
    hot: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 12 })), { maxLength: 3 }),
    // mostly every match type pays (dense: draws near the limit share tickets), sometimes any amounts
    payouts: fc.oneof(
      // growing with the matches, as real games pay: the closed-subset walk decides
      fc
        .tuple(
          fc.integer({ min: 0, max: 20 }),
          fc.integer({ min: 0, max: 50 }),
          fc.integer({ min: 0, max: 200 }),
          fc.integer({ min: 0, max: 1000 }),
          fc.integer({ min: 1, max: 10_000 }),
        )
        .map(([a, b, c, d, e]) => ({
          3: a,
          4: a + b,
          5: a + b + c,
          6: a + b + c + d,
          7: a + b + c + d + e,
        })),
      fc.record({
        3: fc.integer({ min: 1, max: 20 }),
        4: fc.integer({ min: 1, max: 50 }),
        5: fc.integer({ min: 1, max: 200 }),
        6: fc.integer({ min: 1, max: 1000 }),
        7: fc.integer({ min: 1, max: 10_000 }),
      }),
      fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
    ),
    limitPick: fc.oneof(
      fc.double({ min: 0.2, max: 0.9, noNaN: true }),
      fc.double({ min: 0, max: 1.1, noNaN: true }),
    ),
    /** Ranges cut small and split down to single tickets, or as for real files. */
    split: fc.boolean(),
  }),
);

describe('liability limit', () => {
  it('refuses in sales order exactly what a ticket-by-ticket check refuses', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const tickets = c.picks.map((p) => c.distinct[p % c.distinct.length]!);
        // hot combinations bought many times, spread through the file
        for (const [p, copies] of c.hot) {
          for (let k = 0; k < copies; k++) {
            tickets.splice(
              (p * (k + 1)) % (tickets.length + 1),
              0,
              c.distinct[p % c.distinct.length]!,
            );
          }
        }
        const payouts = c.payouts;
        if (![3, 4, 5, 6, 7].some((m) => payouts[m as 3] > 0)) return;
        const before = naiveWorst(tickets, c.pool, payouts);
        const limit = Math.round(before.total * c.limitPick) / 100;
        const input = {
          tickets: Uint8Array.from(tickets.flat()),
          count: tickets.length,
          pool: c.pool,
          payouts,
          budget: { type: 'fixed' as const, budget: 0 },
          workers: 1,
        };
        const decided: number[] = [];
        const run = await limitRun(
          input,
          limit,
          c.split
            ? { chunk: 5, leafWork: 1, minRange: 1, worstWalkWork: 0, recountRest: true }
            : undefined,
          undefined,
          (done) => decided.push(done),
        );
        // the progress: tickets decided so far, range after range, all of them at the end
        expect(decided.at(-1)).toBe(tickets.length);
        decided.forEach((done, i) => expect(done).toBeGreaterThanOrEqual(decided[i - 1] ?? 0));
        const naive = naiveSell(tickets, c.pool, payouts, cents(limit));
        expect(run.refused).toBe(naive.refused.length);
        expect(run.accepted).toBe(tickets.length - naive.refused.length);
        expect([...run.refusedTickets]).toEqual(naive.refused.map((r) => r.index));
        const breaches = await run.breaches();
        expect(breaches.draws).toEqual(naive.refused.map((r) => r.draw));
        expect([...breaches.totals]).toEqual(naive.refused.map((r) => r.total / 100));
        expect(run.worstBefore.totalPayout).toBe(before.total / 100);
        expect(run.worstAfter.totalPayout).toBe(naive.worstAfter.totalPayout);
        expect(run.worstAfter.totalPayout).toBeLessThanOrEqual(limit);
        // ties between worst draws: the engine names the smallest combination, as the scan does
        expect(run.worstAfter).toEqual(naive.worstAfter);

        // the cap: the largest k whose first k copies of each combination fit
        const cap = await capRun(input, limit);
        const counts = new Map<string, number>();
        for (const t of tickets) counts.set(t.join(), (counts.get(t.join()) ?? 0) + 1);
        const maxCopies = Math.max(...counts.values());
        const firstCopies = (k: number) => {
          const seen = new Map<string, number>();
          return tickets.filter((t) => {
            const n = seen.get(t.join()) ?? 0;
            seen.set(t.join(), n + 1);
            return n < k;
          });
        };
        let expected = 0;
        for (let k = 1; k <= maxCopies; k++) {
          if (naiveWorst(firstCopies(k), c.pool, payouts).total <= cents(limit)) expected = k;
        }
        expect(cap.maxCopies).toBe(maxCopies);
        expect(cap.cap).toBe(expected);
        expect(cap.refused).toBe(tickets.length - firstCopies(expected).length);
        if (expected === 0) expect(cap.worstAtCap).toBeNull();
        else {
          const worst = naiveWorst(firstCopies(expected), c.pool, payouts);
          expect(cap.worstAtCap).toEqual({ combo: worst.combo, totalPayout: worst.total / 100 });
        }
      }),
      { numRuns: 150 },
    );
  }, 300_000);
});

describe('liability limit progress', () => {
  it('reports the tickets decided range after range, all of them at the end', async () => {
    // 300 tickets of a pool of 12, one combination every third line: its draws pass a low limit
    const tickets: number[][] = [];
    for (let t = 0; t < 300; t++)
      tickets.push(t % 3 ? [1, 2, 3, 4, 5, 6, 7] : [1 + (t % 6), 7, 8, 9, 10, 11, 12]);
    const payouts: Payouts = { 3: 1, 4: 10, 5: 100, 6: 1_000, 7: 10_000 };
    const input = {
      tickets: Uint8Array.from(tickets.flat()),
      count: tickets.length,
      pool: 12,
      payouts,
      budget: { type: 'fixed' as const, budget: 0 },
      workers: 1,
    };
    const decided: number[] = [];
    const run = await limitRun(input, 50_000, { chunk: 40 }, undefined, (done) =>
      decided.push(done),
    );
    expect(run.refused).toBeGreaterThan(0);
    expect(decided).toEqual([40, 80, 120, 160, 200, 240, 280, 300, 300]);
  });
});
