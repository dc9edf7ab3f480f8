import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINOM } from '../src/core/model';
import {
  buildTables,
  countTables,
  countWhileReading,
  runBuildOp,
  splitTops,
} from '../src/core/tables';
import type { BuildOp, BuildPlan } from '../src/core/table-types';
import { radixSort27 } from '../src/core/ticket-ranks';
import { deriveWeights } from '../src/core/weights';

/** A plan that runs each step's pieces in the calling thread, in a shuffled order. */
function shuffledPlan(parts: number, seed: number): BuildPlan {
  return {
    parts,
    run: (ops: BuildOp[]) => {
      const order = ops
        .map((_, i) => i)
        .sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
      for (const i of order) runBuildOp(ops[i]!);
      return Promise.resolve();
    },
  };
}

const ticketsArb = (pool: number) =>
  fc
    .array(fc.uniqueArray(fc.integer({ min: 1, max: pool }), { minLength: 7, maxLength: 7 }), {
      minLength: 1,
      maxLength: 200,
    })
    .map((list) => Uint8Array.from(list.flatMap((t) => [...t].sort((a, b) => a - b))));

describe('table build split into parts', () => {
  it('gives exactly the tables of the one-piece build, for any number of parts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 8, max: 16 })
          .chain((pool) =>
            fc.tuple(fc.constant(pool), ticketsArb(pool), fc.integer({ min: 2, max: 4 })),
          ),
        async ([pool, tickets, parts]) => {
          const count = tickets.length / 7;
          const weights = deriveWeights(
            { 3: 1, 4: 20, 5: 300, 6: 4000, 7: 50000 },
            { type: 'fixed', budget: 100 },
            count,
          );
          const one = await buildTables(tickets, count, pool, weights);
          const split = await buildTables(
            tickets,
            count,
            pool,
            weights,
            shuffledPlan(parts, parts),
          );
          for (const key of ['c3', 'c4', 'c5', 'c6', 'y6', 'ticketRanks', 'ticketMult'] as const) {
            expect(Array.from(split[key]), key).toEqual(Array.from(one[key]));
          }
          expect(split.maxCount).toEqual(one.maxCount);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('starts from tickets counted while they were read: the same tables, for any parts read and build parts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 8, max: 16 })
          .chain((pool) =>
            fc.tuple(
              fc.constant(pool),
              ticketsArb(pool),
              fc.integer({ min: 1, max: 4 }),
              fc.integer({ min: 1, max: 3 }),
              fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 6 }),
            ),
          ),
        async ([pool, tickets, parts, threads, cuts]) => {
          const count = tickets.length / 7;
          // the file's parts as a read cuts them, each counted into one thread's table, ranks in order
          const bounds = [0, ...cuts.map((c) => Math.min(c, count)).sort((a, b) => a - b), count];
          const c6 = Array.from({ length: threads }, () => new Uint32Array(BINOM[pool]![6]!));
          const ranks = new Uint32Array(count);
          for (let i = 0; i + 1 < bounds.length; i++) {
            const [from, to] = [bounds[i]!, bounds[i + 1]!];
            countWhileReading(
              tickets.subarray(from * 7, to * 7),
              to - from,
              c6[i % threads]!,
              ranks.subarray(from, to),
            );
          }
          const plan = parts === 1 ? undefined : shuffledPlan(parts, parts);
          const walked = await countTables(tickets, count, pool, plan);
          const counted = await countTables(tickets, count, pool, plan, undefined, {
            pool,
            c6,
            ranks,
          });
          for (const key of ['c3', 'c4', 'c5', 'c6', 'ticketRanks', 'ticketMult'] as const) {
            expect(Array.from(counted[key]), key).toEqual(Array.from(walked[key]));
          }
          expect(counted.maxCount).toEqual(walked.maxCount);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses counts of other tickets or another pool', async () => {
    const tickets = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8]);
    const counted = { pool: 10, c6: [new Uint32Array(BINOM[10]![6]!)], ranks: new Uint32Array(2) };
    await expect(countTables(tickets, 2, 12, undefined, undefined, counted)).rejects.toThrow(
      /other tickets/,
    );
    await expect(countTables(tickets, 1, 10, undefined, undefined, counted)).rejects.toThrow(
      /other tickets/,
    );
  });

  it('splits every largest number onto exactly one part, balancing the work', () => {
    for (const [pool, parts, k] of [
      [45, 2, 7],
      [35, 3, 6],
      [8, 4, 5],
    ] as const) {
      const lists = splitTops(pool, parts, k);
      const all = lists.flat().sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: pool - k + 1 }, (_, i) => i + k - 1));
      const loads = lists.map((l) => l.reduce((s, g) => s + BINOM[g]![k - 1]!, 0));
      const total = loads.reduce((s, x) => s + x, 0);
      // largest-first onto the least loaded part: no part exceeds its share by more than one top
      expect(Math.max(...loads)).toBeLessThanOrEqual(total / parts + BINOM[pool - 1]![k - 1]!);
    }
  });
});

describe('radixSort27', () => {
  it('sorts like a comparison sort, duplicates included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 27 - 1 }), { maxLength: 3000 }),
        (keys) => {
          const typed = Uint32Array.from(keys);
          radixSort27(typed);
          expect(Array.from(typed)).toEqual([...keys].sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a key that does not fit 27 bits', () => {
    expect(() => radixSort27(Uint32Array.from([3, 2 ** 27]))).toThrow(/out of range/);
  });
});
