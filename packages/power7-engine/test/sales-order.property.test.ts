import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BulkSums } from '../src/core/bulk-sums';
import { sellInOrder, type RangeTuning } from '../src/core/liability';
import { payByMasks, payByTickets, worstAfterRefusals } from '../src/core/worst-after';
import { masksOf } from '../src/core/shared-numbers';
import { drawsReaching, passOverLine } from '../src/core/line-pass';
import { RangeSums } from '../src/core/range-sums';
import { acceptInOrder } from '../src/core/sales-order';
import { ticketArb } from './arbitraries';

/**
 * The limit run's pieces (ADR 029) against direct counts: what a range of tickets pays each hot
 * draw (`RangeSums` by each subset size, `BulkSums`), and the decisions in sales order
 * (`acceptInOrder`) against a ticket-by-ticket check over the hot draws — at limits that draws reach
 * exactly, with payouts equal across match types, tiny files, every way of cutting the ranges, and
 * at P=49 against `sellInOrder` (the older walk, itself checked against every draw).
 */

const shared = (a: number[], b: number[]) => a.filter((n) => b.includes(n)).length;

/** Payouts in units that never fall as matches grow, often equal across match types. */
const growingArb = fc
  .tuple(
    fc.integer({ min: 0, max: 3 }),
    fc.constantFrom(0, 0, 1, 7),
    fc.constantFrom(0, 1, 40),
    fc.constantFrom(0, 2, 900),
    fc.integer({ min: 0, max: 20_000 }),
  )
  .map(([a, b, c, d, e]) => [0, 0, 0, a, a + b, a + b + c, a + b + c + d, a + b + c + d + e]);

/** Files of a few distinct combinations bought many times (draws near the limit share tickets). */
const fileArb = (pool: number, maxTickets: number) =>
  fc
    .tuple(
      fc.array(ticketArb(pool), { minLength: 1, maxLength: 10 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: maxTickets }),
    )
    .map(([distinct, picks]) => picks.map((p) => distinct[p % distinct.length]!));

function payout(t: number[], d: number[], w: number[]): number {
  return w[shared(t, d)]!;
}

/**
 * Sixty tickets and up to 25 hot draws from a narrow band of numbers (so they share many), three
 * ranges with random tickets skipped: each hot draw's sum from `RangeSums` (by `g`-subsets) and
 * `BulkSums` equals the sum of its tickets' payouts, and clearing leaves nothing behind.
 */
function checkRangeSums(pool: number, g: 5 | 6 | 7, seed: number, w: number[]) {
  const rnd = mulberry(seed);
  const pick = () => {
    const s = new Set<number>();
    while (s.size < 7) s.add(1 + Math.floor(rnd() * Math.min(pool, 11)));
    return [...s].sort((a, b) => a - b);
  };
  const tickets = Array.from({ length: 60 }, pick);
  const hot = [...new Map(Array.from({ length: 25 }, pick).map((d) => [d.join(), d])).values()];
  const flat = Uint8Array.from(tickets.flat());
  const sums = new RangeSums(flat, tickets.length, Uint8Array.from(hot.flat()), pool, w, g);
  const bulk = new BulkSums(flat, Uint8Array.from(hot.flat()), pool, w);
  for (const [from, to] of [
    [0, 60],
    [5, 9],
    [20, 60],
  ] as const) {
    const skip = Uint8Array.from(tickets, () => (rnd() < 0.3 ? 1 : 0));
    sums.count(from, to, skip);
    bulk.count(from, to, skip);
    hot.forEach((d, i) => {
      let expected = 0;
      for (let t = from; t < to; t++) if (!skip[t]) expected += payout(tickets[t]!, d, w);
      expect(sums.sumOf(i)).toBe(expected);
      expect(bulk.sumOf(i)).toBe(expected);
    });
    sums.clear(from, to, skip);
    bulk.clear();
  }
}

describe('what a range of tickets pays the hot draws', () => {
  const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });
  const subsetSizeArb = fc.constantFrom<5 | 6 | 7>(5, 6, 7);

  it('equals the sum over its tickets, for every subset size, cleared between ranges', () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 12, 35), subsetSizeArb, seedArb, growingArb, checkRangeSums),
      { numRuns: 40 },
    );
  }, 120_000);

  // Once a run, not as a rare random pool: P=49's 6-set table alone is 56 MB to push down (~2.6 s a
  // case), and a weight of 1 in 13 over 40 runs gave anything from none (4 % of runs) to six.
  it('equals the sum over its tickets at P=49', () => {
    fc.assert(fc.property(fc.constant(49), subsetSizeArb, seedArb, growingArb, checkRangeSums), {
      numRuns: 1,
    });
  }, 120_000);
});

/** Ticket by ticket over the hot draws: refuse a ticket that would take one past the limit. */
function naiveAccept(tickets: number[][], hot: number[][], w: number[], limit: number) {
  const totals = hot.map(() => 0);
  const refused: number[] = [];
  tickets.forEach((t, i) => {
    if (hot.some((d, h) => totals[h]! + payout(t, d, w) > limit)) refused.push(i);
    else hot.forEach((d, h) => (totals[h] = totals[h]! + payout(t, d, w)));
  });
  return { refused, totals };
}

const tuningArb: fc.Arbitrary<Partial<RangeTuning>> = fc.oneof(
  fc.constant({}),
  fc.record({
    chunk: fc.integer({ min: 1, max: 40 }),
    leafWork: fc.constantFrom(1, 50, 1 << 20),
    minRange: fc.constantFrom(1, 4, 16),
    grow: fc.boolean(),
    bulk: fc.boolean(),
    subsetSize: fc.constantFrom<5 | 6 | 7>(5, 6, 7),
  }),
);

describe('the limit run in sales order', () => {
  it('refuses what a ticket-by-ticket check refuses, at limits draws reach exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 9, max: 11 }).chain((pool) =>
          fc.record({
            pool: fc.constant(pool),
            tickets: fileArb(pool, 120),
            hot: fc.array(ticketArb(pool), { minLength: 1, maxLength: 90 }),
            w: growingArb,
            cut: fc.double({ min: 0, max: 1, noNaN: true }),
            tuning: tuningArb,
          }),
        ),
        async (c) => {
          const hot = [...new Map(c.hot.map((d) => [d.join(), d])).values()];
          // a limit some draw's total reaches exactly at some point of the file
          const prefix = c.tickets.slice(0, Math.ceil(c.tickets.length * c.cut));
          const limit = Math.max(
            ...hot.map((d) => prefix.reduce((s, t) => s + payout(t, d, c.w), 0)),
          );
          const run = await acceptInOrder({
            tickets: Uint8Array.from(c.tickets.flat()),
            count: c.tickets.length,
            pool: c.pool,
            w: c.w,
            limit,
            hot: Uint8Array.from(hot.flat()),
            tuning: c.tuning,
          });
          const naive = naiveAccept(c.tickets, hot, c.w, limit);
          const refused = [...run.refused.keys()].filter((t) => run.refused[t]);
          expect(refused).toEqual(naive.refused);
          expect(run.refusedCount).toBe(naive.refused.length);
          expect([...run.hotTotals]).toEqual(naive.totals);
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);

  it('decides as a ticket-by-ticket check with many draws near the limit at once', async () => {
    // 200 draws of a pool of 11, every third of its 330 combinations sold: ranges then hold far
    // more than 32 draws that might not fit (several bit-sliced words), and many refusals late
    const pool = 11;
    const every: number[][] = [];
    for (let g = 7; g <= pool; g++)
      for (let f = 6; f < g; f++)
        for (let e = 5; e < f; e++)
          for (let d = 4; d < e; d++)
            for (let c = 3; c < d; c++)
              for (let b = 2; b < c; b++)
                for (let a = 1; a < b; a++) every.push([a, b, c, d, e, f, g]);
    const hot = every.filter((_, i) => i % 5 !== 1).slice(0, 200);
    const tickets = [
      ...every.filter((_, i) => i % 3 === 0),
      ...every.filter((_, i) => i % 4 === 1),
    ];
    for (const w of [
      [0, 0, 0, 1, 2, 3, 4, 5],
      [0, 0, 0, 1, 1, 1, 1, 1],
      [0, 0, 0, 0, 0, 7, 7, 100],
    ]) {
      for (const limit of [0, 5, 40, 80, 160]) {
        for (const tuning of [{}, { chunk: 16, leafWork: 1 << 20 }, { chunk: 64, leafWork: 1 }]) {
          const run = await acceptInOrder({
            tickets: Uint8Array.from(tickets.flat()),
            count: tickets.length,
            pool,
            w,
            limit,
            hot: Uint8Array.from(hot.flat()),
            tuning,
          });
          const naive = naiveAccept(tickets, hot, w, limit);
          expect([...run.refused.keys()].filter((t) => run.refused[t])).toEqual(naive.refused);
          expect([...run.hotTotals]).toEqual(naive.totals);
        }
      }
    }
  });

  it('pauses inside a long range with the tickets decided so far, and decides the same', async () => {
    const pool = 10;
    const tickets = Array.from({ length: 400 }, (_, i) =>
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => (n * 7 + i) % 10 > 2).slice(0, 7),
    );
    const hot = [...new Map(tickets.map((d) => [d.join(), d])).values()];
    const w = [0, 0, 0, 1, 2, 3, 4, 5];
    const decided: number[] = [];
    const run = await acceptInOrder(
      {
        tickets: Uint8Array.from(tickets.flat()),
        count: tickets.length,
        pool,
        w,
        limit: 300,
        hot: Uint8Array.from(hot.flat()),
        tuning: { chunk: 200, leafWork: 1, minRange: 8, breatherMs: 0 },
      },
      (done) => {
        decided.push(done);
        return new Promise((resolve) => setImmediate(resolve));
      },
    );
    // more pauses than ranges: some inside them, in order, all tickets at the end
    expect(decided.length).toBeGreaterThan(2);
    expect(decided.some((d) => d % 200 !== 0)).toBe(true);
    decided.forEach((d, i) => expect(d).toBeGreaterThanOrEqual(decided[i - 1] ?? 0));
    expect(decided.at(-1)).toBe(400);
    const naive = naiveAccept(tickets, hot, w, 300);
    expect(naive.refused.length).toBeGreaterThan(0);
    expect([...run.refused.keys()].filter((t) => run.refused[t])).toEqual(naive.refused);
    expect([...run.hotTotals]).toEqual(naive.totals);
  });

  it('decides as the older walk at P=49', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb(49, 400),
        fc.array(ticketArb(49), { maxLength: 40 }),
        growingArb,
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        tuningArb,
        async (tickets, extra, w, share, tuning) => {
          // the hot draws: the file's own combinations and others near them
          const hot = [
            ...new Map(
              [...tickets.slice(0, 30), ...extra].map((d) => [d.join(), d] as const),
            ).values(),
          ];
          const totals = hot.map((d) => tickets.reduce((s, t) => s + payout(t, d, w), 0));
          const input = {
            tickets: Uint8Array.from(tickets.flat()),
            count: tickets.length,
            pool: 49,
            w,
            limit: Math.floor(Math.max(...totals) * share),
            hot: Uint8Array.from(hot.flat()),
          };
          const run = await acceptInOrder({ ...input, tuning });
          const walk = await sellInOrder(input);
          expect(run.refused).toEqual(walk.refused);
          expect(run.hotTotals).toEqual(walk.hotTotals);
        },
      ),
      { numRuns: 60 },
    );
  }, 300_000);
});

describe('the worst draw after the refusals', () => {
  it('is the worst draw of a naive walk, from the draws nearest the line, the refused payouts from masks or from the tickets', () => {
    fc.assert(
      fc.property(
        fileArb(10, 60),
        fc.array(fc.boolean(), { maxLength: 60 }),
        growingArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (tickets, refusedPick, w, share, near) => {
          const draws: number[][] = [];
          // every draw of a pool of 10, in colex order (the order of the totals)
          for (let g = 7; g <= 10; g++)
            for (let f = 6; f < g; f++)
              for (let e = 5; e < f; e++)
                for (let d = 4; d < e; d++)
                  for (let c = 3; c < d; c++)
                    for (let b = 2; b < c; b++)
                      for (let a = 1; a < b; a++) draws.push([a, b, c, d, e, f, g]);
          const refused = tickets.filter((_, i) => refusedPick[i]);
          const accepted = tickets.filter((_, i) => !refusedPick[i]);
          const sum = (ts: number[][], d: number[]) => ts.reduce((s, t) => s + payout(t, d, w), 0);
          const totals = Float64Array.from(draws, (d) => sum(tickets, d));
          const line = Math.floor(Math.max(...totals) * share);
          const hot = draws.filter((_, r) => totals[r]! > line);
          const hotTotals = Float64Array.from(hot, (d) => sum(accepted, d));
          let best = { numbers: draws[0]!, total: -1 };
          for (const d of draws) {
            const total = sum(accepted, d);
            // ties: the smaller combination, number by number
            const before = d.findIndex((n, i) => n !== best.numbers[i]);
            if (total > best.total || (total === best.total && d[before]! < best.numbers[before]!))
              best = { numbers: d, total };
          }
          // the draws that could win, from a near list of a few (often incomplete: a pass then)
          const pass = passOverLine(totals, line, near);
          expect(Array.from(pass.hot, (r) => draws[r])).toEqual(hot);
          const candidates = drawsReaching(pass, totals, Math.max(0, ...hotTotals), draws.length)!;
          const reaching = draws.filter(
            (_, r) => totals[r]! <= line && totals[r]! >= Math.max(0, ...hotTotals),
          );
          expect([...candidates].sort((a, b) => a - b)).toEqual(
            reaching.map((d) => draws.indexOf(d)),
          );
          for (let i = 1; i < candidates.length; i++)
            expect(totals[candidates[i]!]).toBeLessThanOrEqual(totals[candidates[i - 1]!]!);
          // the refused tickets' payouts from their masks, or read from the tickets themselves
          const byMasks = payByMasks(masksOf(Uint8Array.from(refused.flat()), refused.length), w);
          const byTickets = payByTickets(
            Uint8Array.from(tickets.flat()),
            Uint32Array.from(tickets.keys()).filter((i) => refusedPick[i]),
            w,
          );
          const hotNumbers = Uint8Array.from(hot.flat());
          for (const pay of [byMasks, byTickets])
            expect(worstAfterRefusals(totals, hotNumbers, hotTotals, pay, candidates)).toEqual(
              best,
            );
          for (const d of draws) expect(byTickets(d)).toBe(byMasks(d));
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** A small seeded generator (mulberry32). */
function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
