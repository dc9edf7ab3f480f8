import { parseTypedAmount } from '../../lib/insight';

/** What the limit calculator is asked: a chance of exceeding, or an expected excess (an amount). */
export type LimitKind = 'chance' | 'excess';

export type ParsedTarget = { value: number } | { error: string };

const CHANCE_HINT = 'Write a chance as "1 in 1000" or as a percentage such as "0.1 %".';

/**
 * A chance typed as "1 in N" (N may carry thousands separators: "1 in 1,000,000") or as a
 * percentage ("0.1 %", "0.1%"), as a number 0 ≤ p < 1 — the service's `exceedTargets` rule.
 */
export function parseChance(text: string): ParsedTarget {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return { error: `The chance of exceeding is required. ${CHANCE_HINT}` };
  const oneIn = /^1\s*(?:in|\/)\s*([\d][\d,\s]*(?:\.\d+)?)$/.exec(trimmed);
  if (oneIn) {
    const n = Number(oneIn[1]!.replace(/[,\s]/g, ''));
    if (!Number.isFinite(n) || n <= 1) {
      return { error: 'In "1 in N", N must be more than 1 (1 in 1 is every draw).' };
    }
    return { value: 1 / n };
  }
  const percent = /^(\d+(?:\.\d+)?|\.\d+)\s*%$/.exec(trimmed);
  if (percent) {
    const value = Number(percent[1]) / 100;
    if (value >= 1) return { error: 'A chance of exceeding must be less than 100 %.' };
    return { value };
  }
  return { error: CHANCE_HINT };
}

/** The calculator's typed target, read by its kind. */
export function parseTarget(kind: LimitKind, text: string): ParsedTarget {
  return kind === 'chance' ? parseChance(text) : parseTypedAmount(text, 'The expected excess');
}
