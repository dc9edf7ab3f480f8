import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import { buildDrawIndex, buildSortOrder } from '../src/core/draw-index';
import { queryIndex } from '../src/core/draw-index-answers';
import {
  queryDraws,
  SORT_KEYS,
  type FilterQuery,
  type QualifyingTable,
  type QueryContext,
} from '../src/core/draw-query';
import { EngineError } from '../src/core/errors';
import { moneyArb, ticketArb } from './arbitraries';

/** The table's draws cut again in chunks of `size` (the analysis hands them over in chunks). */
function rechunk(table: QualifyingTable, size: number): QualifyingTable {
  const ranks = new Uint32Array(table.length);
  const counts = [0, 1, 2, 3, 4].map(() => new Uint32Array(table.length));
  let at = 0;
  for (const ch of table.chunks) {
    ranks.set(ch.ranks.subarray(0, ch.length), at);
    ch.counts.forEach((c, k) => counts[k]!.set(c.subarray(0, ch.length), at));
    at += ch.length;
  }
  const chunks: QualifyingTable['chunks'] = [];
  for (let from = 0; from < table.length; from += size) {
    const end = Math.min(table.length, from + size);
    chunks.push({
      length: end - from,
      ranks: ranks.subarray(from, end),
      counts: counts.map((c) => c.subarray(from, end)),
    });
  }
  return { length: table.length, chunks };
}

/** The scan's answer, or the error it throws. */
const outcome = (answer: () => unknown) => {
  try {
    return answer();
  } catch (err) {
    if (err instanceof EngineError) return { error: err.code, field: err.field };
    throw err;
  }
};

const rangeArb = (max: number) =>
  fc.option(
    fc.oneof(
      fc
        .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }))
        .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
      fc.integer({ min: 0, max }).map((min) => ({ min })),
      fc.integer({ min: 0, max }).map((max) => ({ max })),
      // a reversed range: both paths refuse it alike
      fc.constant({ min: 5, max: 1 }),
    ),
    { nil: undefined },
  );

const queryArb = (pool: number, maxTotal: number): fc.Arbitrary<FilterQuery> =>
  fc.record(
    {
      // pages past the end of what matches, too
      page: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 400 })),
      pageSize: fc.integer({ min: 1, max: 40 }),
      sort: fc.record({
        by: fc.constantFrom(...SORT_KEYS),
        direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      }),
      winners: fc.record(
        { 3: rangeArb(40), 4: rangeArb(8), 5: rangeArb(3), 6: rangeArb(2), 7: rangeArb(1) },
        { requiredKeys: [] },
      ),
      // amounts with cents, as the service's form sends them
      totalPayout: fc.option(
        fc
          .tuple(fc.integer({ min: 0, max: maxTotal }), fc.integer({ min: 0, max: maxTotal }))
          .map(([a, b]) => ({ min: Math.min(a, b) / 100, max: Math.max(a, b) / 100 })),
        { nil: undefined },
      ),
      mustInclude: fc.uniqueArray(fc.integer({ min: 1, max: pool }), { maxLength: 3 }),
      mustExclude: fc.uniqueArray(fc.integer({ min: 1, max: pool }), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  );

describe('the draw index against the scan it replaces (queryDraws)', () => {
  it('answers every query with the same rows, order, total and errors', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 8, max: 13 }).chain((pool) =>
          fc.tuple(
            fc.constant(pool),
            fc.array(ticketArb(pool), { minLength: 1, maxLength: 80 }),
            fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
            // every draw qualifying, or only the cheaper ones
            fc.oneof(fc.constant(1e9), fc.integer({ min: 0, max: 3000 })),
            fc.integer({ min: 1, max: 700 }),
          ),
        ),
        async ([pool, tickets, payouts, budget, chunk]) => {
          const res = await analyzeTickets(Uint8Array.from(tickets.flat()), tickets.length, {
            pool,
            payouts,
            budget: { type: 'fixed', budget },
            workers: 1,
          });
          const ctx: QueryContext = {
            pool,
            table: rechunk(res.table, chunk),
            w: res.weights.w,
            unit: res.weights.unit,
          };
          const index = buildDrawIndex(ctx);
          expect(index).not.toBeNull();
          const maxCents = Math.round((res.stats.max || 1) * 100 + 200);
          const queries = fc.sample(queryArb(pool, maxCents), { numRuns: 12, seed: chunk });
          const orders = new Map<number, Uint32Array>();
          const orderOf = (key: number) => {
            if (!orders.has(key)) orders.set(key, buildSortOrder(index!, key));
            return orders.get(key)!;
          };
          for (const [i, q] of [{}, ...queries].entries()) {
            const want = outcome(() => queryDraws(ctx, q));
            // the scan cut in parts as the worker threads share it, or whole
            expect(outcome(() => queryIndex(ctx, index!, q, { parts: 1 + (i % 3) }))).toEqual(want);
            // the page walked in its sort's order, its count from the bitsets or a scan
            expect(
              outcome(() => queryIndex(ctx, index!, q, { orderOf, walkLimit: Infinity })),
            ).toEqual(want);
            // a walk that gives up half way: the scan answers
            expect(outcome(() => queryIndex(ctx, index!, q, { orderOf, walkLimit: 3 }))).toEqual(
              want,
            );
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('orders equal totals by combo, both ways, and pages past the end are empty', async () => {
    // every ticket the same: many draws share a total
    const tickets = Array.from({ length: 5 }, () => [1, 2, 3, 4, 5, 6, 7]);
    const res = await analyzeTickets(Uint8Array.from(tickets.flat()), tickets.length, {
      pool: 12,
      payouts: { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 },
      budget: { type: 'fixed', budget: 1e9 },
      workers: 1,
    });
    const ctx: QueryContext = {
      pool: 12,
      table: res.table,
      w: res.weights.w,
      unit: res.weights.unit,
    };
    const index = buildDrawIndex(ctx)!;
    for (const direction of ['asc', 'desc'] as const) {
      for (const by of SORT_KEYS) {
        for (const page of [1, 3, 40, 10_000]) {
          const q: FilterQuery = { sort: { by, direction }, page, pageSize: 17 };
          const want = queryDraws(ctx, q);
          expect(queryIndex(ctx, index, q)).toEqual(want);
          const orderOf = (key: number) => buildSortOrder(index, key);
          expect(queryIndex(ctx, index, q, { orderOf, walkLimit: Infinity })).toEqual(want);
        }
      }
    }
    const past = queryIndex(ctx, index, { page: 10_000, pageSize: 17 });
    expect(past.items).toEqual([]);
    expect(past.total).toBe(res.table.length);
  });
});
