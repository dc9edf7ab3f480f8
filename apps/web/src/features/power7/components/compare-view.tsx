import { skipToken } from '@reduxjs/toolkit/query';
import { useSearchParams } from 'react-router';
import type { InsightAnswer, Power7Session, Power7Status } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import {
  useFilterDrawsQuery,
  usePower7SessionsQuery,
  useProcessingStatusQuery,
} from '../api/power7-endpoints';
import { useSessionInsightQuery } from '../api/scenario-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../hooks/use-power7-access';
import { budgetCurve, histogramEdges, type CurvePoint } from '../lib/insight';
import {
  budgetsOf,
  budgetText,
  comparedFromSearch,
  fileGroupOf,
  MAX_COMPARED,
} from '../lib/scenarios';
import { NoPermission, StepHeader } from './common';
import { CompareCurves, CompareTable } from './compare-parts';

/** One compared session: its status, the insight at its own budget(s) and its budget curve. */
export interface Compared {
  status: Power7Status;
  insight: InsightAnswer | undefined;
  curve: CurvePoint[] | undefined;
}

function useCompared(id: string | undefined): Compared | null {
  const status = useProcessingStatusQuery(id ? { session: id } : skipToken);
  const done = status.data?.status === 'done' ? status.data : undefined;
  const insight = useSessionInsightQuery(
    done && id ? { session: id, budgets: budgetsOf(done.params) } : skipToken,
  );
  const filter = useFilterDrawsQuery(
    done && id ? { session: id, page: 1, pageSize: 1 } : skipToken,
  );
  // the curve: the exact share covered at each edge of the results screen's log-spaced scale
  const stats = filter.data?.stats;
  const curve = useSessionInsightQuery(
    stats && id ? { session: id, budgets: histogramEdges(stats.min, stats.max) } : skipToken,
  );
  if (!status.data) return null;
  return {
    status: status.data,
    insight: insight.data,
    curve: curve.data ? budgetCurve(curve.data) : undefined,
  };
}

/**
 * `/app/power7/compare?sessions=a,b,c`: up to three runs of one customer file side by side, what
 * each one's budget covers and costs, and their budget curves overlaid.
 */
export function CompareView() {
  const access = usePower7Access();
  const [search, setSearch] = useSearchParams();
  const ids = comparedFromSearch(search);
  const a = useCompared(ids[0]);
  const b = useCompared(ids[1]);
  const c = useCompared(ids[2]);
  const compared = [a, b, c].filter((x): x is Compared => x !== null);
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...ids, id].slice(0, MAX_COMPARED) : ids.filter((x) => x !== id);
    const out = new URLSearchParams(search);
    out.set('sessions', next.join(','));
    setSearch(out, { replace: true });
  };
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7 · Compare runs" />
      <StepHeader
        title="Compare runs of one file"
        description="The same customer tickets under other payouts or budgets: what each run's budget covers, what it costs when a draw exceeds it, and the budget curves together."
      />
      {!access.canRun ? (
        <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
      ) : (
        <>
          <RunPicker selected={ids} anchor={compared[0]?.status} onToggle={toggle} />
          {ids.length && !compared.length ? (
            <Skeleton className="h-64" aria-label="Loading the runs" />
          ) : null}
          {compared.length ? <CompareTable compared={compared} /> : null}
          {compared.some((x) => x.curve) ? <CompareCurves compared={compared} /> : null}
        </>
      )}
    </div>
  );
}

/** The finished runs of the first compared session's file, to add or remove (three at most). */
function RunPicker({
  selected,
  anchor,
  onToggle,
}: {
  selected: string[];
  anchor: Power7Session | undefined;
  onToggle: (id: string, on: boolean) => void;
}) {
  const sessions = usePower7SessionsQuery({ page: 1, pageSize: 100 });
  const group = anchor ? fileGroupOf(anchor) : null;
  const runs = (sessions.data?.items ?? []).filter(
    (s) => s.status === 'done' && (group === null || fileGroupOf(s) === group),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Runs of {anchor?.originalName ?? 'this file'}</CardTitle>
        <CardDescription>Choose up to {MAX_COMPARED} finished runs.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isLoading ? (
          <Skeleton className="h-16" aria-label="Loading the runs" />
        ) : (
          <ul className="grid gap-2" aria-label="Runs to compare">
            {runs.map((s) => {
              const on = selected.includes(s._id);
              return (
                <li key={s._id} className="flex items-center gap-3 text-sm">
                  <Checkbox
                    id={`run-${s._id}`}
                    checked={on}
                    disabled={!on && selected.length >= MAX_COMPARED}
                    onCheckedChange={(checked) => onToggle(s._id, checked === true)}
                  />
                  <label htmlFor={`run-${s._id}`} className="flex flex-wrap gap-x-3">
                    <span className="font-medium">
                      {s.name ?? s.originalName ?? 'Customer file'}
                    </span>
                    <span className="text-muted-foreground tabular-nums">
                      budget {budgetText(s.params)} {s.params.currency ?? ''} · payouts{' '}
                      {[3, 4, 5, 6, 7].map((m) => s.params.payouts[m as 3]).join(' / ')}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
