import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseWatch,
  ranksAtLeast,
  seeTotals,
  writeTotals,
  type TotalsSeen,
} from '../src/core/book-watch';

/**
 * The watch of a live book is chosen from the draws seen near the limit while the totals were
 * written (`TotalsSeen`), walking every draw only where that list cannot answer. These properties
 * hold the short cut to the walk it replaces, on small totals where ties with every threshold are
 * common (a `>` for a `>=` in a filter shows there, not in the book's own property).
 */

/** The same totals seen with no list: every question walks every draw. */
const walking = (seen: TotalsSeen): TotalsSeen => ({ ...seen, floor: Infinity });

const naiveRanks = (values: ArrayLike<number>, x: number) =>
  Array.from(values, (v, d) => (v >= x ? d : -1)).filter((d) => d >= 0);

const caseArb = fc
  .record({
    a: fc.array(fc.integer({ min: 0, max: 24 }), { minLength: 1, maxLength: 120 }),
    takeShare: fc.double({ min: 0, max: 1, noNaN: true }),
    floor: fc.integer({ min: -5, max: 30 }),
    most: fc.integer({ min: 1, max: 40 }),
    w3: fc.integer({ min: 0, max: 4 }),
    up: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 4, maxLength: 4 }),
    room: fc.integer({ min: 0, max: 24 }),
    watchCap: fc.integer({ min: 1, max: 30 }),
    maxDeferred: fc.integer({ min: 1, max: 12 }),
    minShare: fc.double({ min: 0, max: 1, noNaN: true }),
    fivesDeferredMin: fc.integer({ min: 1, max: 12 }),
  })
  .map((c) => {
    // b ≤ a: the refused tickets' totals are part of the session's
    const b = c.a.map((v) => Math.floor(v * c.takeShare));
    const w = [0, 0, 0, c.w3];
    for (const step of c.up) w.push(w[w.length - 1]! + step);
    const minDeferred = Math.max(1, Math.round(c.minShare * c.maxDeferred));
    const tuning = {
      watchCap: c.watchCap,
      maxDeferred: c.maxDeferred,
      minDeferred,
      fivesDeferredMin: c.fivesDeferredMin,
    };
    return { ...c, b, w, tuning };
  });

describe('choosing a live book’s watch from the draws seen near the limit', () => {
  it('writes and sees the totals as a plain pass does', () => {
    fc.assert(
      fc.property(caseArb, ({ a, b, floor, most }) => {
        const from = { floor, most };
        for (const [k, expected] of [
          [0, a],
          [3, a.map((v, d) => v + 3 * b[d]!)],
        ] as const) {
          const into = new Float64Array(a.length);
          const seen = writeTotals(into, a, k === 0 ? undefined : b, k, from);
          expect(Array.from(into)).toEqual(expected);
          const listed = naiveRanks(expected, floor);
          expect(seen.top).toBe(Math.max(0, ...expected));
          expect(seen.count).toBe(listed.length);
          expect(Array.from(seen.ranks.subarray(0, Math.min(most, seen.count)))).toEqual(
            listed.slice(0, most),
          );
          expect(seeTotals(into, from)).toEqual(seen);
        }
      }),
    );
  });

  it('lists and chooses from the seen draws exactly as from a walk over every draw', () => {
    fc.assert(
      fc.property(caseArb, ({ a, floor, most, w, room, tuning }) => {
        const base = Float64Array.from(a);
        const seen = seeTotals(base, { floor, most });
        for (const x of [floor - 1, floor, floor + 1, ...a.slice(0, 8)]) {
          const all = naiveRanks(base, x);
          const expected = all.length <= most ? all : null;
          const fast = ranksAtLeast(base, seen, x, most);
          expect(fast && Array.from(fast)).toEqual(expected);
          const walked = ranksAtLeast(base, walking(seen), x, most);
          expect(walked && Array.from(walked)).toEqual(expected);
        }
        const game = { limit: seen.top + room, w };
        expect(chooseWatch(base, game, tuning, seen)).toEqual(
          chooseWatch(base, game, tuning, walking(seen)),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
