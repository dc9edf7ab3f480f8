import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useInsightQuery } from '../../api/power7-endpoints';
import { histogramEdges, insightBodyFor, type BudgetBand } from '../../lib/insight';

/**
 * The two insight questions of a session (`POST /api/insight/`): the first gives the range of
 * totals, the second counts the draws at each histogram edge and at the budget. Shared by the
 * results screen and the printable report, so both show the same exact figures.
 */
export function useBudgetInsight(session: string, band: BudgetBand) {
  const overview = useInsightQuery({ session });
  const edges = useMemo(
    () =>
      overview.data
        ? histogramEdges(overview.data.min, overview.data.max, undefined, [
            band.max,
            ...(band.min !== null ? [band.min] : []),
          ])
        : null,
    [overview.data, band.max, band.min],
  );
  const detail = useInsightQuery(edges ? insightBodyFor(session, edges, band) : skipToken);
  return {
    draws: overview.data?.draws,
    answer: edges ? detail.data : undefined,
    edges,
    error: overview.error ?? detail.error,
    retry: () => void (overview.error ? overview.refetch() : detail.refetch()),
  };
}
