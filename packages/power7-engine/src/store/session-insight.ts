import {
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  QUANTILE_KEYS,
} from '@pa/contracts/power7-limits';
import {
  DistributionQuery,
  fileBins,
  indexFromColumns,
  type BinReader,
  type DistributionIndex,
} from '../analysis/distribution';
import {
  budgetInsight,
  exceedLimit,
  excessLimit,
  quantiles,
  rangeInsight,
  shortfall,
} from '../analysis/distribution-insight';
import { EngineError } from '../core/errors';
import { fileIn, readAligned, type StoredAnalysis } from './session-files';
import type { AnalysisSummary, InsightAnswer, InsightQuery } from './session-types';

/** The session's distribution index (1.5 MB), read on its first question. */
export async function openDistribution(
  sessionDir: string,
  stored: StoredAnalysis,
): Promise<{ index: DistributionIndex; readBin: BinReader }> {
  const layout = stored.storage.distribution;
  if (!layout) {
    throw new EngineError(
      'SESSION_NOT_READY',
      'This session was analysed before exact insight existed; run it again to ask budget questions.',
    );
  }
  const buffer = await readAligned(fileIn(sessionDir, 'distributionIndex'));
  const index = indexFromColumns(buffer, layout.bins, {
    draws: stored.draws,
    shift: layout.shift,
    unit: stored.storage.unit,
  });
  const path = fileIn(sessionDir, 'distribution');
  return { index, readBin: fileBins(path, index, layout.bytes ?? 8) };
}

const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Exact answers to `query` over a session's distribution (bins read as they are needed). */
export async function answerInsight(
  { index, readBin }: { index: DistributionIndex; readBin: BinReader },
  analysis: AnalysisSummary,
  query: InsightQuery,
): Promise<InsightAnswer> {
  const budgets = query.budgets ?? [];
  const ranges = query.ranges ?? [];
  if (!budgets.every(isAmount)) {
    throw new EngineError('INVALID_PARAMS', 'Every budget must be an amount ≥ 0.', 'budgets');
  }
  if (!ranges.every((r) => isAmount(r.min) && isAmount(r.max) && r.min <= r.max)) {
    throw new EngineError(
      'INVALID_PARAMS',
      'Every range needs amounts min ≤ max, both ≥ 0.',
      'ranges',
    );
  }
  if (budgets.length > INSIGHT_MAX_BUDGETS) {
    throw new EngineError('INVALID_PARAMS', `At most ${INSIGHT_MAX_BUDGETS} budgets.`, 'budgets');
  }
  if (ranges.length > INSIGHT_MAX_RANGES) {
    throw new EngineError('INVALID_PARAMS', `At most ${INSIGHT_MAX_RANGES} ranges.`, 'ranges');
  }
  const exceedTargets = query.exceedTargets ?? [];
  const excessTargets = query.excessTargets ?? [];
  const shortfallLevels = query.shortfallLevels ?? [];
  const isChance = (p: unknown): p is number => isAmount(p) && p < 1;
  if (!exceedTargets.every(isChance) || exceedTargets.length > INSIGHT_MAX_EXCEED_TARGETS) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_EXCEED_TARGETS} chances of exceeding, each at least 0 and below 1.`,
      'exceedTargets',
    );
  }
  if (!excessTargets.every(isAmount) || excessTargets.length > INSIGHT_MAX_EXCESS_TARGETS) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_EXCESS_TARGETS} expected excesses, each an amount ≥ 0.`,
      'excessTargets',
    );
  }
  if (
    !shortfallLevels.every((q) => isChance(q) && q > 0) ||
    shortfallLevels.length > INSIGHT_MAX_SHORTFALL_LEVELS
  ) {
    throw new EngineError(
      'INVALID_PARAMS',
      `At most ${INSIGHT_MAX_SHORTFALL_LEVELS} shortfall levels, each above 0 and below 1.`,
      'shortfallLevels',
    );
  }
  const distribution = new DistributionQuery(index, readBin);
  const { stats } = analysis;
  const jackpotDraws = stats.jackpotDraws ?? 0;
  // sessions analysed before the far quantiles existed have only some of them stored
  const stored = stats.quantiles;
  const storedAll = stored && QUANTILE_KEYS.every((q) => q in stored);
  return {
    draws: analysis.draws,
    min: stats.min,
    max: stats.max,
    mean: stats.mean,
    quantiles: storedAll ? stored : await quantiles(distribution),
    jackpotDraws,
    jackpotShare: jackpotDraws / analysis.draws,
    worst: {
      combo: stats.worstDraw.combo,
      totalPayout: stats.worstDraw.totalPayout,
      winners: stats.worstDraw.winners,
    },
    budgets: await Promise.all(budgets.map((b) => budgetInsight(distribution, b))),
    ranges: await Promise.all(ranges.map((r) => rangeInsight(distribution, r.min, r.max))),
    limits: await Promise.all(exceedTargets.map((p) => exceedLimit(distribution, p))),
    excessLimits: await Promise.all(excessTargets.map((e) => excessLimit(distribution, e))),
    shortfall: await Promise.all(shortfallLevels.map((q) => shortfall(distribution, q))),
  };
}
