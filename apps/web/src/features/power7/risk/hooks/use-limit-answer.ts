import { skipToken } from '@reduxjs/toolkit/query';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useInsightQuery } from '../../api/power7-endpoints';
import { parseTarget, type LimitKind } from '../lib/limit-target';

/** What the calculator shows: the limit found and the draws above it, or why there is none yet. */
export type LimitAnswer =
  | { state: 'invalid'; error: string }
  | { state: 'working' }
  | { state: 'failed'; retry: () => void }
  | { state: 'done'; budget: number; exceeding: number; draws: number; target: number };

/**
 * The limit for a typed target, a moment after typing stops: a chance of exceeding asks
 * `exceedTargets` (its answer says the draws above); an expected excess asks `excessTargets`, then
 * the found budget itself, for the draws above it.
 */
export function useLimitAnswer(session: string, kind: LimitKind, text: string): LimitAnswer {
  const typed = parseTarget(kind, text);
  const settled = JSON.parse(useDebouncedValue(JSON.stringify([kind, text]))) as [
    LimitKind,
    string,
  ];
  const question = parseTarget(...settled);
  const asked = 'value' in question ? { kind: settled[0], value: question.value } : null;
  const first = useInsightQuery(
    asked
      ? asked.kind === 'chance'
        ? { session, exceedTargets: [asked.value] }
        : { session, excessTargets: [asked.value] }
      : skipToken,
  );
  const excessLimit = asked?.kind === 'excess' ? first.currentData?.excessLimits[0] : undefined;
  const second = useInsightQuery(
    excessLimit ? { session, budgets: [excessLimit.budget] } : skipToken,
  );

  if ('error' in typed) return { state: 'invalid', error: typed.error };
  if (first.isError || second.isError) {
    return {
      state: 'failed',
      retry: () => void (first.isError ? first.refetch() : second.refetch()),
    };
  }
  const answer = first.currentData;
  // still typing: the answer on screen would be for the words before
  if (!asked || !answer || settled[0] !== kind || settled[1] !== text) return { state: 'working' };
  if (asked.kind === 'chance') {
    const limit = answer.limits[0];
    if (!limit) return { state: 'working' };
    return {
      state: 'done',
      budget: limit.budget,
      exceeding: limit.exceeding,
      draws: answer.draws,
      target: asked.value,
    };
  }
  const atLimit = second.currentData?.budgets[0];
  if (!excessLimit || !atLimit) return { state: 'working' };
  return {
    state: 'done',
    budget: excessLimit.budget,
    exceeding: atLimit.exceeding,
    draws: answer.draws,
    target: asked.value,
  };
}
