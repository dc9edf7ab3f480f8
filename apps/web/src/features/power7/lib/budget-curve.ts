import type { DrawStats } from '@pa/contracts/power7';

/** One point of the budget curve: the share of all draws whose total payout is below `budget`. */
export interface CurvePoint {
  budget: number;
  share: number;
}

/**
 * The budget curve from the exact histogram over all draws: bin i holds the draws whose total is in
 * [edges[i], edges[i+1]), so the share below each edge is exact; the last edge covers every draw.
 */
export function budgetCurve(histogram: DrawStats['histogram'], draws: number): CurvePoint[] {
  const points: CurvePoint[] = [];
  let below = 0;
  histogram.edges.forEach((edge, i) => {
    points.push({ budget: edge, share: draws ? below / draws : 0 });
    below += histogram.counts[i] ?? 0;
  });
  if (points.length) points[points.length - 1]!.share = 1;
  return points;
}

/** The service's finer histogram for the curve when it sends one (older results only have the coarse one). */
export const finestHistogram = (stats: Pick<DrawStats, 'histogram' | 'curve'>) =>
  stats.curve ?? stats.histogram;

export interface CoverageReading {
  /** Share of draws whose total payout is at most the budget: at least `low`, at most `high`. */
  low: number;
  high: number;
  exact: boolean;
}

/**
 * How many draws a budget covers (total payout ≤ budget). Below the smallest total none, from the
 * largest all; in between the budget's bin bounds the answer (exact when it falls on a bin edge
 * that no draw total equals, or the bin is empty).
 */
export function coverageOf(
  budget: number,
  stats: Pick<DrawStats, 'histogram' | 'curve' | 'draws' | 'min' | 'max'>,
): CoverageReading {
  if (budget < stats.min) return { low: 0, high: 0, exact: true };
  if (budget >= stats.max) return { low: 1, high: 1, exact: true };
  const { edges, counts } = finestHistogram(stats);
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const upper = edges[i + 1]!;
    const inBin = counts[i]!;
    if (budget < upper) {
      const low = below / stats.draws;
      const high = (below + inBin) / stats.draws;
      return { low, high, exact: inBin === 0 };
    }
    below += inBin;
  }
  return { low: 1, high: 1, exact: true };
}

/** The smallest histogram edge whose share of draws below it reaches `share` (a budget that surely covers it). */
export function budgetForShare(
  histogram: DrawStats['histogram'],
  draws: number,
  share: number,
): number {
  const curve = budgetCurve(histogram, draws);
  return (
    curve.find((point) => point.share >= share)?.budget ?? curve[curve.length - 1]?.budget ?? 0
  );
}
