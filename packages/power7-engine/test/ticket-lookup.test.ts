import { describe, expect, it } from 'vitest';
import { PICK } from '../src/core/model';
import {
  buildTicketLookup,
  lookUpWinners,
  winningCombinations,
} from '../src/analysis/ticket-lookup';
import { findWinners, ticketMasks } from '../src/analysis/winners';
import { mulberry32 as rng } from '../bench/generate';

/** `count` sorted tickets from 1..pool, many of them repeated (customers sharing a combination). */
function tickets(count: number, pool: number, seed: number): Uint8Array {
  const next = rng(seed);
  const out = new Uint8Array(count * PICK);
  for (let t = 0; t < count; t++) {
    if (t > 0 && next() < 0.2) {
      const from = Math.floor(next() * t);
      out.copyWithin(t * PICK, from * PICK, from * PICK + PICK);
      continue;
    }
    const picked = new Set<number>();
    while (picked.size < PICK) picked.add(1 + Math.floor(next() * pool));
    out.set(
      [...picked].sort((a, b) => a - b),
      t * PICK,
    );
  }
  return out;
}

describe('tickets grouped by combination', () => {
  for (const pool of [10, 35, 49]) {
    it(`finds exactly the walk's 5-, 6- and 7-match winners, in file order (pool ${pool})`, () => {
      const count = 20_000;
      const all = tickets(count, pool, pool);
      const masks = ticketMasks(all, count);
      const lookup = buildTicketLookup(all, count);
      const next = rng(pool * 7);
      let winners = 0;
      for (let d = 0; d < 30; d++) {
        // half the draws are a ticket's own numbers, so 7-match and 6-match winners exist
        const numbers =
          d % 2 === 0
            ? Array.from(all.subarray(d * 13 * PICK, d * 13 * PICK + PICK))
            : (() => {
                const s = new Set<number>();
                while (s.size < PICK) s.add(1 + Math.floor(next() * pool));
                return [...s].sort((a, b) => a - b);
              })();
        for (const m of [5, 6, 7] as const) {
          const walked = findWinners(masks, numbers, m).index;
          const looked = lookUpWinners(lookup, all, pool, numbers, m);
          expect(Array.from(looked), `${numbers.join('-')} ${m}`).toEqual(Array.from(walked));
          winners += looked.length;
        }
      }
      expect(winners).toBeGreaterThan(30);
    });
  }

  it('counts the winning combinations of a match type', () => {
    expect(winningCombinations(35, 6)).toBe(7 * 28);
    expect(winningCombinations(35, 7)).toBe(1);
    expect(winningCombinations(49, 5)).toBe(21 * 861);
  });
});
