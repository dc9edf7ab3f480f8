import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTickets } from '../src/analysis/analyze';
import { queryDraws, SORT_KEYS, type FilterQuery } from '../src/core/draw-query';
import type { MatchType } from '../src/core/model';
import { naiveAnalysis, type NaiveDraw } from './reference';

const payouts = { 3: 1, 4: 5, 5: 20, 6: 100, 7: 1000 };

const lexCmp = (a: number[], b: number[]) => {
  for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
};

/** The query done the obvious way over the naive per-draw results (every draw qualifies here). */
function naiveQuery(draws: NaiveDraw[], q: FilterQuery): { rows: string[]; total: number } {
  const sort = q.sort ?? { by: 'totalPayout', direction: 'desc' };
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyOf = (d: NaiveDraw): number =>
    sort.by === 'totalPayout'
      ? d.totalCents
      : sort.by === 'combo'
        ? 0
        : d.winners[Number(sort.by.slice(7))]!;
  const kept = draws.filter((d) => {
    for (const m of [3, 4, 5, 6, 7] as MatchType[]) {
      const r = q.winners?.[m];
      if (r && (d.winners[m]! < (r.min ?? -Infinity) || d.winners[m]! > (r.max ?? Infinity)))
        return false;
    }
    const t = d.totalCents / 100;
    if (
      q.totalPayout &&
      (t < (q.totalPayout.min ?? -Infinity) || t > (q.totalPayout.max ?? Infinity))
    )
      return false;
    if (!(q.mustInclude ?? []).every((n) => d.numbers.includes(n))) return false;
    if ((q.mustExclude ?? []).some((n) => d.numbers.includes(n))) return false;
    return true;
  });
  kept.sort((a, b) =>
    sort.by === 'combo'
      ? sign * lexCmp(a.numbers, b.numbers)
      : sign * (keyOf(a) - keyOf(b)) || lexCmp(a.numbers, b.numbers),
  );
  const page = q.page ?? 1;
  const size = q.pageSize ?? 20;
  return {
    rows: kept
      .slice((page - 1) * size, page * size)
      .map((d) => `${d.numbers.join('-')}:${d.totalCents}:${d.winners.slice(3).join(',')}`),
    total: kept.length,
  };
}

const rangeArb = (max: number) =>
  fc.option(
    fc
      .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }))
      .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
    { nil: undefined },
  );

const queryArb = (pool: number) =>
  fc.record(
    {
      page: fc.integer({ min: 1, max: 4 }),
      pageSize: fc.integer({ min: 1, max: 30 }),
      sort: fc.record({
        by: fc.constantFrom(...SORT_KEYS),
        direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      }),
      winners: fc.record({ 3: rangeArb(40), 5: rangeArb(6) }, { requiredKeys: [] }),
      totalPayout: rangeArb(400).map((r) => r),
      mustInclude: fc.uniqueArray(fc.integer({ min: 1, max: pool }), { maxLength: 2 }),
      mustExclude: fc.uniqueArray(fc.integer({ min: 1, max: pool }), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  );

describe('queryDraws against a naive filter and sort', () => {
  it('finds the same rows, in the same order, with the same total', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 8, max: 12 }).chain((pool) =>
          fc.tuple(
            fc.constant(pool),
            fc.array(
              fc
                .uniqueArray(fc.integer({ min: 1, max: pool }), { minLength: 7, maxLength: 7 })
                .map((a) => a.sort((x, y) => x - y)),
              { minLength: 1, maxLength: 60 },
            ),
            fc.array(queryArb(pool), { minLength: 1, maxLength: 4 }),
          ),
        ),
        async ([pool, tickets, queries]) => {
          const res = await analyzeTickets(Uint8Array.from(tickets.flat()), tickets.length, {
            pool,
            payouts,
            budget: { type: 'fixed', budget: 1e9 },
            workers: 1,
          });
          const naive = naiveAnalysis(tickets, pool, payouts);
          const ctx = { pool, table: res.table, w: res.weights.w, unit: res.weights.unit };
          for (const q of queries) {
            const got = queryDraws(ctx, q);
            const want = naiveQuery(naive, q);
            expect(got.total).toBe(want.total);
            expect(
              got.items.map(
                (d) =>
                  `${d.combo}:${Math.round(d.totalPayout * 100)}:${[3, 4, 5, 6, 7].map((m) => d.winners[m as MatchType]).join(',')}`,
              ),
            ).toEqual(want.rows);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
