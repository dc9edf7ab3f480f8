import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import { ArrivingCsvRead } from '../src/reading/arriving-read';
import { queryDraws } from '../src/core/draw-query';
import { numbersOfRank, type Budget, type Payouts } from '../src/core/model';
import { naiveAnalysis, qualifies } from './reference';
import { moneyArb, ticketArb } from './arbitraries';

const caseArb = fc
  .integer({ min: 8, max: 14 })
  .chain((pool) =>
    fc.record({
      pool: fc.constant(pool),
      // duplicates on purpose: a few distinct tickets repeated
      distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 40 }),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
      payouts: fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
      budgetKind: fc.constantFrom('fixed', 'range'),
      q1: fc.double({ min: 0, max: 1, noNaN: true }),
      q2: fc.double({ min: 0, max: 1, noNaN: true }),
      mode: fc.constantFrom('sparse', 'dense', 'auto'),
    }),
  )
  .map((c) => ({ ...c, tickets: c.picks.map((i) => c.distinct[i % c.distinct.length]!) }));

async function check(
  c: {
    pool: number;
    tickets: number[][];
    payouts: Payouts;
    budgetKind: string;
    q1: number;
    q2: number;
    mode: 'sparse' | 'dense' | 'auto';
  },
  workers: number,
  /** Read the tickets from a CSV arriving in ranges of this many bytes, counted as they are read. */
  readInRanges?: number,
) {
  const naive = naiveAnalysis(c.tickets, c.pool, c.payouts);
  const totals = naive.map((d) => d.totalCents).sort((a, b) => a - b);
  const at = (q: number) => totals[Math.floor(q * (totals.length - 1))]! / 100;
  const budget: Budget =
    c.budgetKind === 'fixed'
      ? { type: 'fixed', budget: at(c.q1) }
      : { type: 'range', min: at(Math.min(c.q1, c.q2)), max: at(Math.max(c.q1, c.q2)) };
  let buf: Uint8Array = new Uint8Array(c.tickets.length * 7);
  c.tickets.forEach((t, i) => buf.set(t, i * 7));
  let counted;
  if (readInRanges) {
    const csv = ['n1,n2,n3,n4,n5,n6,n7', ...c.tickets.map((t) => t.join(','))].join('\n');
    const read = new ArrivingCsvRead({
      pool: c.pool,
      workers,
      rangeBytes: readInRanges,
      headBytes: 30,
      count: true,
    });
    // in pieces of 64 bytes, as an upload's chunks
    for (let at = 0; at < csv.length; at += 64)
      await read.push(Buffer.from(csv.slice(at, at + 64)));
    const file = (await read.end())!.file;
    expect(file.counted, 'counted while read').toBeDefined();
    expect(file.tickets).toEqual(buf);
    buf = file.tickets;
    counted = file.counted;
  }
  const res = await analyzeTickets(buf, c.tickets.length, {
    pool: c.pool,
    payouts: c.payouts,
    budget,
    workers,
    countMode: c.mode,
    ...(counted ? { counted } : {}),
  });
  const expected = naive.filter((d) => qualifies(d.totalCents, budget));
  const byCombo = new Map(expected.map((d) => [d.numbers.join('-'), d]));
  expect(res.qualified).toBe(expected.length);
  for (const ch of res.table.chunks) {
    for (let k = 0; k < ch.length; k++) {
      const combo = numbersOfRank(ch.ranks[k]!).join('-');
      const e = byCombo.get(combo);
      expect(e, combo).toBeDefined();
      expect([0, 1, 2, 3, 4].map((m) => ch.counts[m]![k])).toEqual(e!.winners.slice(3));
    }
  }
  expect(res.stats.min).toBe(totals[0]! / 100);
  expect(res.stats.max).toBe(totals[totals.length - 1]! / 100);
  const sum = totals.reduce((a, b) => a + b, 0);
  expect(res.stats.mean).toBeCloseTo(sum / totals.length / 100, 6);
  for (const hist of [res.stats.histogram, res.stats.curve]) {
    expect(hist.counts.reduce((a, b) => a + b, 0)).toBe(naive.length);
    for (let i = 0; i < hist.counts.length; i++) {
      const inBin = naive.filter(
        (d) =>
          d.totalCents >= Math.round(hist.edges[i]! * 100) &&
          d.totalCents < Math.round(hist.edges[i + 1]! * 100),
      ).length;
      expect(inBin).toBe(hist.counts[i]);
    }
  }
  expect(res.stats.curve.counts.length).toBeGreaterThanOrEqual(res.stats.histogram.counts.length);
  // worst draw: max total, ties by combo ascending (lexicographic on the numbers)
  const worst = naive
    .filter((d) => d.totalCents === totals[totals.length - 1])
    .map((d) => d.numbers)
    .sort((a, b) => {
      for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return 0;
    })[0]!;
  expect(numbersOfRank(res.stats.worstRank)).toEqual(worst);
  // top 20 by total desc, ties by combo asc
  const top = queryDraws(
    { pool: c.pool, table: res.table, w: res.weights.w, unit: res.weights.unit },
    { pageSize: 20 },
  ).items.map((d) => `${d.combo}:${Math.round(d.totalPayout * 100)}`);
  const lexCmp = (a: number[], b: number[]) => {
    for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  };
  const expTop = [...expected]
    .sort((a, b) => b.totalCents - a.totalCents || lexCmp(a.numbers, b.numbers))
    .slice(0, 20)
    .map((d) => `${d.numbers.join('-')}:${d.totalCents}`);
  expect(top).toEqual(expTop);
}

describe('engine equals the naive reference', () => {
  it('in this thread, random pools 8..14, duplicates, zero payouts, both budgets', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, (c) => check(c, 1)),
      { numRuns: 40, seed: 20261122 },
    );
  }, 60_000);

  it.each([2, 3])(
    'split over %i worker threads',
    async (workers) => {
      await fc.assert(
        fc.asyncProperty(caseArb, (c) => check(c, workers)),
        { numRuns: 3, seed: 7 + workers },
      );
    },
    60_000,
  );

  it('from tickets counted by the threads that read the file as it arrived (2 threads, ranges of 40–400 bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.integer({ min: 40, max: 400 }), (c, range) =>
        check(c, 2, range),
      ),
      { numRuns: 6, seed: 20261126 },
    );
  }, 60_000);
});
