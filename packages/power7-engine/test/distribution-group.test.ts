import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binStarts, groupDistribution, memoryBins } from '../src/analysis/distribution';
import { drawBytes, type GroupedColumn } from '../src/core/distribution-group';
import { BINOM } from '../src/core/model';
import { HIST_BINS } from '../src/core/scan';
import { runBuildOp, splitTops } from '../src/core/tables';
import type { BuildOp, BuildPlan } from '../src/core/table-types';

/**
 * The draws grouped by bin on several parts at once (each walking only its own top numbers, as the
 * scan workers do) and written piece by piece equal a grouping done the obvious way: per bin, the same
 * totals (in any order), and the same exact sums, whatever the bin width and stored bytes per draw;
 * the bins read back from the pieces in memory hold those totals too.
 */

/** Runs the parts in the calling thread, last first (the order must not matter). */
const reversedPlan = (parts: number): BuildPlan => ({
  parts,
  run: (ops: BuildOp[]) => {
    for (const op of [...ops].reverse()) runBuildOp(op);
    return Promise.resolve();
  },
});

const caseArb = fc.record({
  pool: fc.integer({ min: 8, max: 12 }),
  parts: fc.integer({ min: 1, max: 3 }),
  /** The largest total: from one-value bins (shift 0) to whole float64 totals (shift > 32). */
  maxExponent: fc.integer({ min: 1, max: 51 }),
  seed: fc.integer(),
  /** Small pieces force several passes; a bin larger than a piece is one of its own. */
  maxBytes: fc.oneof(fc.constant(1 << 20), fc.integer({ min: 1, max: 400 })),
});

describe('distribution grouped on parts', () => {
  it('equals a plain grouping by bin, with exact sums', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ pool, parts, maxExponent, seed, maxBytes }) => {
        const draws = BINOM[pool]![7]!;
        const totals = new Float64Array(new SharedArrayBuffer(draws * 8));
        let x = seed >>> 0;
        const top = 2 ** maxExponent;
        for (let r = 0; r < draws; r++) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          // integers in [0, 2^maxExponent), a few draws far above the rest
          totals[r] =
            r % 97 === 5
              ? top - 1 - (x % Math.min(7, top))
              : Math.floor((x / 2 ** 32) * top ** 0.5);
        }
        let shift = 0;
        while (Math.floor(Math.max(...totals) / 2 ** shift) >= HIST_BINS) shift++;
        const binOf = (t: number) => Math.floor(t / 2 ** shift);
        const split = splitTops(pool, parts);
        const counts = new Float64Array(HIST_BINS);
        const scanned = split.map((tops) => {
          const hist = new Float64Array(HIST_BINS);
          for (const g of tops) {
            for (let r = BINOM[g]![7]!; r < BINOM[g + 1]![7]!; r++) hist[binOf(totals[r]!)]!++;
          }
          for (let b = 0; b < HIST_BINS; b++) counts[b] = counts[b]! + hist[b]!;
          return { tops, hist };
        });
        const pieces: GroupedColumn[] = [];
        const sums = await groupDistribution(
          totals,
          counts,
          shift,
          scanned,
          reversedPlan(parts),
          (piece) => {
            pieces.push(piece);
            return Promise.resolve();
          },
          maxBytes,
        );
        const bytes = drawBytes(shift);
        const stored = pieces.flatMap((p) => Array.from(p));
        expect(stored).toHaveLength(bytes === 0 ? 0 : draws);
        const starts = binStarts(counts);
        const expected = new Map<number, number[]>();
        for (const t of totals) expected.set(binOf(t), [...(expected.get(binOf(t)) ?? []), t]);
        // the bins read from the pieces in memory, as the analysis reads its quantiles
        const inMemory = memoryBins(pieces, { counts, shift }, bytes);
        const byValue = (a: number, b: number) => a - b;
        for (const [bin, list] of expected) {
          const sum = list.reduce((s, t) => s + BigInt(t), 0n);
          expect(BigInt(sums.sumHigh[bin]!) * 2n ** 26n + BigInt(sums.sumLow[bin]!)).toBe(sum);
          expect(Array.from(await inMemory(bin)).sort(byValue)).toEqual([...list].sort(byValue));
          if (bytes === 0) continue;
          const got = stored
            .slice(starts[bin]!, starts[bin + 1]!)
            .map((v) => (bytes === 8 ? v : bin * 2 ** shift + v));
          expect(got.sort(byValue)).toEqual([...list].sort(byValue));
        }
      }),
      { numRuns: 60 },
    );
  });
});
