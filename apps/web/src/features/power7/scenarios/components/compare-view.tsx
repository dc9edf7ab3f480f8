import { skipToken } from '@reduxjs/toolkit/query';
import { useSearchParams } from 'react-router';
import type { InsightAnswer, InsightBody, Power7Status } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import {
  useInsightQuery,
  usePower7SessionsQuery,
  useProcessingStatusQuery,
} from '../../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { budgetBandOf } from '../../lib/insight';
import { budgetMoney, payoutsMoney } from '../../lib/money';
import {
  byRunOrder,
  comparedFromSearch,
  fileGroupOf,
  MAX_COMPARED,
  runLabels,
} from '../lib/scenarios';
import { NoPermission, StepHeader } from '../../components/common';
import { CompareTable } from './compare-parts';
import { CompareTails } from './compare-tails';

/** One compared session: its status, its label, and the insight at its own budget (or range). */
export interface Compared {
  status: Power7Status;
  /** Its name or kind and parameters (lib/scenarios `runLabels`). */
  label: string;
  insight: InsightAnswer | undefined;
  /** Why the insight could not be had (e.g. a 409: analysed before insight existed). */
  insightError: unknown;
}

/** The insight question of a run: its budget (a range's maximum) and, for a range, the range. */
export function ownQuestion(status: Power7Status): InsightBody {
  const band = budgetBandOf(status.params);
  return {
    session: status._id,
    budgets: [band.max],
    ...(band.min !== null ? { ranges: [{ min: band.min, max: band.max }] } : {}),
  };
}

function useCompared(id: string | undefined) {
  const status = useProcessingStatusQuery(id ? { session: id } : skipToken);
  const done = status.data?.status === 'done' ? status.data : undefined;
  const insight = useInsightQuery(done ? ownQuestion(done) : skipToken);
  return status.data
    ? { status: status.data, insight: insight.data, insightError: insight.error }
    : null;
}

/**
 * `/app/power7/compare?sessions=a,b,c`: up to three runs of one customer file side by side, in the
 * picker's order (the upload, then its reruns, oldest first), what each one's budget covers and
 * costs, and their tails on one chart.
 */
export function CompareView() {
  const access = usePower7Access();
  const [search, setSearch] = useSearchParams();
  const ids = comparedFromSearch(search);
  const a = useCompared(ids[0]);
  const b = useCompared(ids[1]);
  const c = useCompared(ids[2]);
  const loaded = [a, b, c]
    .filter((x): x is NonNullable<typeof x> => x !== null)
    .sort((x, y) => byRunOrder(x.status, y.status));
  const labels = runLabels(loaded.map((x) => x.status));
  const compared: Compared[] = loaded.map((x) => ({
    ...x,
    label: labels.get(x.status._id) ?? '',
  }));
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
        description="The same customer tickets under other payouts or budgets: what each run's budget covers, what it costs when a draw exceeds it, and how far each run's tail reaches."
      />
      {!access.canRun ? (
        <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
      ) : (
        <>
          <RunPicker selected={ids} anchor={compared[0]?.status} onToggle={toggle} />
          {ids.length && !compared.length ? (
            <Skeleton className="h-64" aria-label="Loading the runs" />
          ) : null}
          {!ids.length ? (
            <p className="text-muted-foreground text-sm" data-testid="power7-compare-none">
              No run chosen yet: tick up to {MAX_COMPARED} runs above to see them side by side.
            </p>
          ) : null}
          {compared.length ? <CompareTable compared={compared} /> : null}
          {compared.length ? <CompareTails compared={compared} /> : null}
        </>
      )}
    </div>
  );
}

/** The finished runs of the compared file, upload first, to add or remove (three at most). */
function RunPicker({
  selected,
  anchor,
  onToggle,
}: {
  selected: string[];
  anchor: Power7Status | undefined;
  onToggle: (id: string, on: boolean) => void;
}) {
  const sessions = usePower7SessionsQuery({ page: 1, pageSize: 100 });
  const group = anchor ? fileGroupOf(anchor) : null;
  const runs = (sessions.data?.items ?? [])
    .filter((s) => s.status === 'done' && (group === null || fileGroupOf(s) === group))
    .sort(byRunOrder);
  const labels = runLabels(runs);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Runs of {anchor?.originalName ?? 'this file'}</CardTitle>
        <CardDescription>
          Choose up to {MAX_COMPARED} finished runs: the upload first, then its reruns, oldest
          first. The table and the chart list them in this order.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isLoading ? (
          <Skeleton className="h-16" aria-label="Loading the runs" />
        ) : (
          <ul className="grid gap-3" aria-label="Runs to compare" data-testid="power7-compare-runs">
            {runs.map((s) => {
              const on = selected.includes(s._id);
              return (
                <li key={s._id} className="flex items-start gap-3 text-sm">
                  <Checkbox
                    id={`run-${s._id}`}
                    className="mt-0.5"
                    checked={on}
                    disabled={!on && selected.length >= MAX_COMPARED}
                    onCheckedChange={(checked) => onToggle(s._id, checked === true)}
                  />
                  <label htmlFor={`run-${s._id}`} className="grid gap-0.5">
                    <span className="font-medium">{labels.get(s._id)}</span>
                    <span className="text-muted-foreground tabular-nums">
                      budget {budgetMoney(s.params)} · payouts {payoutsMoney(s.params)} · pool{' '}
                      {s.params.pool_size}
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
