import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useInsightQuery } from '../../api/power7-endpoints';
import type { BudgetBand } from '../../lib/insight';
import { riskBodyFor } from '../lib/exceedance';

/**
 * The risk view's exact figures (`POST /api/insight/`): the overview (the same cached question the
 * budget insight asks first) gives the range of totals and the quantiles; the second question asks
 * the exceedance curve's amounts, the preset limits and the expected shortfalls in one go.
 */
export function useRiskInsight(session: string, band: BudgetBand) {
  const overview = useInsightQuery({ session });
  const { min, max } = band;
  const body = useMemo(
    () => (overview.data ? riskBodyFor(session, overview.data, { min, max }) : null),
    [overview.data, session, min, max],
  );
  const detail = useInsightQuery(body ?? skipToken);
  return {
    answer: body ? detail.data : undefined,
    error: overview.error ?? detail.error,
    retry: () => void (overview.error ? overview.refetch() : detail.refetch()),
  };
}
