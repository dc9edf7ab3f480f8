import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeScanWorkers } from '../src/analysis/analyze';
import { combinationExposure, exposureBase } from '../src/analysis/exposure';
import {
  drawsOfRanks,
  foldTwice,
  markDraws,
  matchesOfAllDraws,
  tailAbove,
  tailIndex,
  tailOf,
} from '../src/core/exposure';
import { countSubsets, matchesRange, type FoldedDraws, type MatchesOp } from '../src/core/matches';
import { colexUnrank, drawCount, type Payouts, PICK, ticketRank } from '../src/core/model';
import { SharedBufferLease } from '../src/core/shared-buffers';
import { countTables, INLINE_BUILD } from '../src/core/tables';
import { deriveWeights } from '../src/core/weights';
import { moneyArb, ticketArb } from './arbitraries';

/**
 * The two shortcuts of exposure on a new line (issue #40), against the obvious counts: the draws
 * above a line taken from the kept top of the totals (`tailIndex`) at lines on ties, at 0, above the
 * worst draw and below the index; the combinations' matches from the folded tables of the counted
 * draws (`FoldedDraws`, 7 pairs of loads) equal to the ~100 lookups and to a draw-by-draw count, on
 * both sides of the line; and, end to end, the lookups still taken when the fold could overflow.
 */

afterAll(() => closeScanWorkers());

const shared = (n: number) => new Float64Array(new SharedArrayBuffer(Math.max(8, n * 8)));

function everyDraw(pool: number): number[][] {
  const out: number[][] = [];
  const one = [0, 0, 0, 0, 0, 0, 0];
  for (let r = 0; r < drawCount(pool); r++) {
    colexUnrank(r, PICK, one, pool - 1);
    out.push(one.map((x) => x + 1));
  }
  return out;
}
const matches = (a: ArrayLike<number>, b: number[]) =>
  Array.from(a).filter((n) => b.includes(n)).length;
const asBytes = (rows: number[][]) => new Uint8Array(rows.flat());

describe('the draws above a line from the kept top of the totals', () => {
  const totalsArb = fc.array(
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 1e12 })),
    { minLength: 1, maxLength: 3000 },
  );

  it('equal a walk over every total, at lines on ties, at 0 and above the worst', () => {
    fc.assert(
      fc.property(totalsArb, fc.nat(), (values, pick) => {
        const totals = Float64Array.from(values);
        const index = tailIndex(totals);
        if (!index) return;
        const sorted = [...values].sort((a, b) => a - b);
        const lines = [0, sorted[pick % sorted.length]!, sorted.at(-1)!, sorted.at(-1)! + 1];
        for (const line of lines) {
          const expected = values.flatMap((t, r) => (t > line ? [r] : []));
          if (line < index.floor) {
            // below the kept top: a draw above the line may be missing from it
            continue;
          }
          const tail = tailAbove(index, line);
          expect(Array.from(tail.ranks)).toEqual(expected);
          expect(tail).toMatchObject(tailOf(totals, line));
        }
        // the kept draws are exactly those above the floor
        expect(Array.from(index.ranks)).toEqual(
          values.flatMap((t, r) => (t > index.floor ? [r] : [])),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('is not kept when more than a tenth of the draws would be (the sample missed them)', () => {
    const totals = Float64Array.from({ length: 200_000 }, (_, r) => (r % 3 === 0 ? 0 : 1));
    expect(tailIndex(totals)).toBeNull();
  });
});

describe('the combinations matches from the folded tables of the counted draws', () => {
  const caseArb = fc.integer({ min: 9, max: 14 }).chain((pool) =>
    fc.record({
      pool: fc.constant(pool),
      side: fc.uniqueArray(fc.integer({ min: 0, max: drawCount(pool) - 1 }), { maxLength: 400 }),
      combos: fc.uniqueArray(ticketArb(pool), {
        minLength: 1,
        maxLength: 30,
        selector: (t) => t.join('-'),
      }),
      payouts: fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
      above: fc.boolean(),
    }),
  );

  it('equal the lookups and a draw-by-draw count, on both sides of the line', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const draws = everyDraw(c.pool);
        const sideRanks = Uint32Array.from(c.side).sort();
        const combos = [...c.combos].sort(
          (a, b) => ticketRank(asBytes([a]), 0) - ticketRank(asBytes([b]), 0),
        );
        const numbers = asBytes(combos);
        const ranks = Uint32Array.from(combos, (t) => ticketRank(asBytes([t]), 0));
        const onSide = new Uint8Array(combos.length);
        markDraws(ranks, sideRanks, onSide);
        const pay = deriveWeights(c.payouts, { type: 'fixed', budget: 0 }, sideRanks.length);
        const tables =
          sideRanks.length > 0
            ? await countTables(drawsOfRanks(sideRanks, c.pool), sideRanks.length, c.pool)
            : null;
        const run = (folded: FoldedDraws | null) => {
          const op: MatchesOp = {
            op: 'matches',
            tables: folded ? null : tables,
            folded,
            numbers,
            onSide,
            from: 0,
            to: combos.length,
            above: c.above,
            w: Array.from(pay.w),
            all: Array.from(matchesOfAllDraws(c.pool)),
            drawsWon: shared(combos.length),
            perCopy: shared(combos.length),
          };
          matchesRange(op);
          return { won: Array.from(op.drawsWon), pays: Array.from(op.perCopy) };
        };
        const lookedUp = run(null);
        if (tables) {
          // the few draws of a high line are counted one by one: the same tables
          const one = new SharedBufferLease(null);
          const direct = { ...tables };
          for (const k of ['c3', 'c4', 'c5', 'c6'] as const) direct[k] = one.u32(tables[k].length);
          countSubsets(drawsOfRanks(sideRanks, c.pool), sideRanks.length, direct);
          for (const k of ['c3', 'c4', 'c5', 'c6'] as const) expect(direct[k]).toEqual(tables[k]);
        }
        // the draw-by-draw count: the counted draws, or all the others
        const inSide = new Set(c.side);
        const counted = draws.filter((_, r) => inSide.has(r) === c.above);
        const expected = { won: [] as number[], pays: [] as number[] };
        for (const t of combos) {
          const m = counted.map((d) => matches(t, d));
          expected.won.push(m.filter((x) => x >= 3).length);
          expected.pays.push(m.reduce((s, x) => s + (x >= 3 ? pay.w[x]! : 0), 0));
        }
        expect(lookedUp).toEqual(expected);
        if (!tables) return;
        const won = deriveWeights(
          { 3: 1, 4: 1, 5: 1, 6: 1, 7: 1 },
          { type: 'fixed', budget: 0 },
          sideRanks.length,
        );
        const all = matchesOfAllDraws(c.pool);
        let allPay = 0;
        let allWon = 0;
        for (let j = 3; j <= PICK; j++) {
          allPay += all[j]! * pay.w[j]!;
          allWon += all[j]!;
        }
        const y = await foldTwice(
          tables,
          [pay.beta, won.beta],
          INLINE_BUILD,
          new SharedBufferLease(null),
        );
        const folded = run({
          y,
          alpha7Pay: pay.alpha[7]!,
          alpha7Won: won.alpha[7]!,
          allPay,
          allWon,
        });
        expect(folded).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

/** Each distinct combination's draws won and payout (units) over the draws above `lineCents`, checked. */
function expectNaive(
  e: Awaited<ReturnType<typeof combinationExposure>>,
  draws: number[][],
  totals: number[],
  lineCents: number,
  payouts: Payouts,
) {
  const over = draws.filter((_, r) => totals[r]! > lineCents);
  expect(e.draws).toBe(over.length);
  expect(e.tailTotal * e.unit).toBe(totals.reduce((s, t) => s + (t > lineCents ? t : 0), 0));
  for (let k = 0; k < e.distinct.ranks.length; k++) {
    const t = Array.from(e.distinct.numbers.subarray(k * PICK, k * PICK + PICK));
    const m = over.map((d) => matches(t, d));
    const cents = m.reduce((s, x) => s + (x >= 3 ? Math.round(payouts[x as 3] * 100) : 0), 0);
    expect({ won: e.drawsWon[k], pays: e.perCopy[k]! * e.unit }).toEqual({
      won: m.filter((x) => x >= 3).length,
      pays: cents,
    });
  }
}

function totalsOf(tickets: number[][], draws: number[][], payouts: Payouts): number[] {
  return draws.map((d) =>
    tickets.reduce((s, t) => {
      const m = matches(t, d);
      return s + (m >= 3 ? Math.round(payouts[m as 3] * 100) : 0);
    }, 0),
  );
}

describe('exposure of one base at many lines', () => {
  const caseArb = fc.integer({ min: 9, max: 12 }).chain((pool) =>
    fc.record({
      pool: fc.constant(pool),
      tickets: fc.array(ticketArb(pool), { minLength: 1, maxLength: 40 }),
      payouts: fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
      picks: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
    }),
  );

  it('equals a draw-by-draw count at every line: the first walks, the next use the kept top', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        if (![3, 4, 5, 6, 7].some((m) => c.payouts[m as 3] > 0)) return;
        const draws = everyDraw(c.pool);
        const totals = totalsOf(c.tickets, draws, c.payouts);
        const sorted = [...totals].sort((a, b) => a - b);
        const worst = sorted.at(-1)!;
        // on ties (a draw's own total), at 0, just below and above the worst draw
        const lines = [
          sorted[Math.floor(sorted.length * 0.99)]!,
          0,
          Math.max(0, worst - 1),
          worst,
          worst + 100,
          ...c.picks.map(
            (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!,
          ),
        ];
        const input = {
          tickets: asBytes(c.tickets),
          count: c.tickets.length,
          pool: c.pool,
          payouts: c.payouts,
          budget: { type: 'fixed' as const, budget: 0 },
          workers: 1,
        };
        const base = await exposureBase(input);
        for (const line of lines)
          expectNaive(await combinationExposure(input, line, base), draws, totals, line, c.payouts);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('exposure where the fold could overflow', () => {
  // two tickets and a 6-match payout of 10^9: the analysis is exact, but a fold of ~5,000 counted
  // draws could pass 2^52, so the matches are looked up; on the scan workers and in this thread
  const pool = 16;
  const tickets = [
    [1, 2, 3, 4, 5, 6, 7],
    [3, 5, 8, 9, 12, 14, 16],
  ];
  const payouts: Payouts = { 3: 0.01, 4: 1, 5: 20, 6: 1e9, 7: 2e9 };

  it.each([1, 2])(
    'ranks as a draw-by-draw count (%i thread(s))',
    async (workers) => {
      const draws = everyDraw(pool);
      const totals = totalsOf(tickets, draws, payouts);
      const line = [...totals].sort((a, b) => a - b)[Math.floor(totals.length * 0.4)]!;
      const over = totals.filter((t) => t > line).length;
      const counted = Math.min(over, draws.length - over);
      // the case is the one meant: the fold of the counted draws is refused, the analysis is not
      expect(() => deriveWeights(payouts, { type: 'fixed', budget: 0 }, counted)).toThrow();
      const input = {
        tickets: asBytes(tickets),
        count: tickets.length,
        pool,
        payouts,
        budget: { type: 'fixed' as const, budget: 0 },
        workers,
      };
      expectNaive(await combinationExposure(input, line), draws, totals, line, payouts);
    },
    60_000,
  );
});
