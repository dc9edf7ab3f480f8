import { Columns3, FileDown, SlidersHorizontal, TriangleAlert } from 'lucide-react';
import { useStore } from 'react-redux';
import { Link } from 'react-router';
import type { InsightAnswer, Power7Status } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api/api-error';
import { power7Endpoints } from '../../api/power7-endpoints';
import { useLazySessionInsightQuery } from '../../api/scenario-endpoints';
import { usePower7Access } from '../../hooks/use-power7-access';
import { formatCount, formatPercent } from '../../lib/format';
import { saveBlob } from '../../lib/save-file';
import {
  budgetsOf,
  compareLink,
  insightCsv,
  mergeInsight,
  rejectedWarning,
} from '../lib/scenarios';

type Power7State = Parameters<typeof power7Endpoints.util.selectCachedArgsForQuery>[0];

/** The insight answers in the cache for a session: every question its screens asked. */
function cachedInsights(state: unknown, session: string): InsightAnswer[] {
  const root = state as Power7State;
  return power7Endpoints.util
    .selectCachedArgsForQuery(root, 'insight')
    .filter((args) => args.session === session)
    .map((args) => power7Endpoints.endpoints.insight.select(args)(root).data)
    .filter((data): data is InsightAnswer => data !== undefined);
}

/**
 * What an analyst does next with a finished session: run its tickets again with other payouts or
 * budget (no upload), compare it with the other runs of its file, keep the insight tables as CSV.
 */
export function ScenarioActions({ status }: { status: Power7Status }) {
  const { canRun } = usePower7Access();
  // asked on the click only: the results screen asks its own questions already
  const [askInsight, insight] = useLazySessionInsightQuery();
  const store = useStore();
  const session = encodeURIComponent(status._id);
  const saveInsight = async () => {
    try {
      const own = await askInsight(
        { session: status._id, budgets: budgetsOf(status.params) },
        true,
      ).unwrap();
      // with every other answer this page holds for the session: each budget tried is in the file
      const answer = mergeInsight([own, ...cachedInsights(store.getState(), status._id)]) ?? own;
      const csv = insightCsv(answer, status);
      saveBlob(
        new Blob([csv], { type: 'text/csv;charset=utf-8' }),
        `power7-${status._id}-insight.csv`,
      );
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <div className="flex flex-wrap gap-2" data-testid="power7-scenario-actions">
      {canRun ? (
        <Button asChild>
          <Link to={`/app/power7/rerun?session=${session}`}>
            <SlidersHorizontal className="size-4" aria-hidden="true" /> Try other payouts or budget
          </Link>
        </Button>
      ) : null}
      <Button asChild variant="outline">
        <Link to={compareLink([status.sourceSessionId ?? status._id, status._id])}>
          <Columns3 className="size-4" aria-hidden="true" /> Compare runs of this file
        </Link>
      </Button>
      <Button variant="outline" disabled={insight.isFetching} onClick={() => void saveInsight()}>
        <FileDown className="size-4" aria-hidden="true" /> Insight tables (CSV)
      </Button>
    </div>
  );
}

/** Above 10 % rejected rows, a warning before the results, naming the commonest reason. */
export function RejectedWarning({ status }: { status: Power7Status }) {
  const warning = rejectedWarning(status);
  if (!warning) return null;
  return (
    <div
      role="alert"
      data-testid="power7-rejected-warning"
      className="flex gap-3 rounded-md border border-amber-500/60 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <p>
        <strong>{formatPercent(warning.share)} of the rows were rejected</strong> (
        {formatCount(status.counts.rejected ?? 0)} of {formatCount(status.counts.rowsRead ?? 0)}
        ), so these results cover only the rest.
        {warning.reason
          ? ` The commonest reason: “${warning.reason}” (${formatCount(warning.count)} rows).`
          : ''}{' '}
        Check the rejected rows below before relying on them.
      </p>
    </div>
  );
}
