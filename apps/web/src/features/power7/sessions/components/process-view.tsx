import { Download, Printer, RotateCcw } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import type { Power7Status } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ScrollRegion } from '@/components/ui/table';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { useDownload } from '../../hooks/use-download';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { useStatusPolling } from '../hooks/use-status-polling';
import { useCountdown } from '../../hooks/use-countdown';
import { formatBytes, formatCount } from '../../lib/format';
import { timeLeftText } from '../../lib/time-left';
import { budgetMoney, payoutsMoney } from '../../lib/money';
import { BudgetInsight } from '../../insight/components/budget-insight';
import { budgetBandOf } from '../../lib/insight';
import { RiskSection } from '../../risk/components/risk-section';
import { LiabilitySection } from '../../liability/components/liability-section';
import { DrawsExplorer } from '../../draws/components/draws-explorer';
import { RejectedWarning, ScenarioActions } from '../../scenarios/components/scenario-actions';
import { reportLink } from '../../report/components/session-report';
import {
  LoadError,
  NoPermission,
  NoSessionChosen,
  SessionGone,
  StatusBadge,
  StepHeader,
  httpStatusOf,
} from '../../components/common';

export const PHASE_LABEL: Record<string, string> = {
  queued: 'Waiting for the analysis ahead of it',
  reading: 'Reading the file',
  building: 'Building the ticket tables',
  scanning: 'Scanning every draw',
  writing: 'Saving the results',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Seconds left, from the time spent so far and the fraction done (null while it cannot be told). */
export function estimateSecondsLeft(status: Power7Status, now = Date.now()): number | null {
  if (status.status !== 'running' || !status.startedAt || status.progress < 0.05) return null;
  const elapsed = (now - Date.parse(status.startedAt)) / 1000;
  return (elapsed * (1 - status.progress)) / status.progress;
}

export function ProcessView() {
  const [search] = useSearchParams();
  const session = search.get('session');
  const access = usePower7Access();
  if (!access.canRun) {
    return (
      <Shell>
        <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
      </Shell>
    );
  }
  if (!session) return <NoSession />;
  return <ProcessOf session={session} />;
}

function Shell({ children, status }: { children: React.ReactNode; status?: Power7Status }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7 · Process" />
      <StepHeader
        title={status?.originalName ?? 'Analysis'}
        description={
          status
            ? `${formatBytes(status.fileBytes)} · budget ${budgetMoney(status.params)} · payouts ${payoutsMoney(status.params)} · pool ${status.params.pool_size}`
            : undefined
        }
        actions={
          <>
            {status?.status === 'done' ? (
              <Button asChild variant="outline">
                <Link to={reportLink(status._id)}>
                  <Printer className="size-4" aria-hidden="true" /> Print report
                </Link>
              </Button>
            ) : null}
            <Button asChild variant="outline">
              <Link to="/app/power7">All sessions</Link>
            </Button>
          </>
        }
      />
      {children}
    </div>
  );
}

function NoSession() {
  return (
    <Shell>
      <NoSessionChosen />
    </Shell>
  );
}

function ProcessOf({ session }: { session: string }) {
  const query = useStatusPolling(session);
  const status = query.data;
  if (query.error) {
    const code = httpStatusOf(query.error);
    if (code === 404) {
      return (
        <Shell>
          <SessionGone more=" Start a new analysis to see results again." />
        </Shell>
      );
    }
    if (code === 403) {
      return (
        <Shell>
          <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
        </Shell>
      );
    }
    return (
      <Shell>
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      </Shell>
    );
  }
  if (!status) {
    return (
      <Shell>
        <Skeleton className="h-40" aria-label="Loading the session" />
      </Shell>
    );
  }
  return (
    <Shell status={status}>
      {/* a failed or cancelled job says so once, in its own card, not as a stalled progress bar */}
      {status.status === 'queued' || status.status === 'running' ? (
        <ProgressCard status={status} answeredAt={query.fulfilledTimeStamp ?? 0} />
      ) : null}
      {status.status === 'failed' || status.status === 'cancelled' ? (
        <FailedCard status={status} />
      ) : null}
      {status.status === 'done' ? <RejectedWarning status={status} /> : null}
      {status.counts.rejected !== undefined ? <RejectedRows status={status} /> : null}
      {status.status === 'done' ? (
        <>
          <ScenarioActions status={status} />
          <DoneSummary status={status} />
          <BudgetInsight
            session={session}
            params={status.params}
            {...(status.params.currency ? { currency: status.params.currency } : {})}
          />
          <RiskSection
            session={session}
            band={budgetBandOf(status.params)}
            {...(status.params.currency ? { currency: status.params.currency } : {})}
          />
          <LiabilitySection
            session={session}
            {...(status.params.currency ? { currency: status.params.currency } : {})}
          />
          <DrawsExplorer session={session} params={status.params} />
        </>
      ) : null}
    </Shell>
  );
}

function ProgressCard({ status, answeredAt }: { status: Power7Status; answeredAt: number }) {
  const percent = Math.round(status.progress * 100);
  const left = useCountdown(estimateSecondsLeft(status, answeredAt), answeredAt);
  const c = status.counts;
  return (
    <Card data-testid="power7-progress">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <StatusBadge status={status.status} />
          <span aria-live="polite">{PHASE_LABEL[status.phase] ?? status.phase}</span>
        </CardTitle>
        {status.status === 'queued' ? (
          <CardDescription>
            Another analysis is running; this one starts as soon as it ends.
          </CardDescription>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <Progress value={percent} aria-label="Analysis progress" />
        <dl className="text-muted-foreground grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <Count label="Progress" value={`${percent} %`} />
          <Count label="Rows read" value={c.rowsRead} />
          <Count label="Tickets accepted" value={c.accepted} />
          <Count label="Rows rejected" value={c.rejected} />
          <Count label="Draws evaluated" value={c.drawsEvaluated} />
          <Count
            label="Time left"
            value={
              status.status === 'queued'
                ? undefined
                : left === null
                  ? 'Estimating…'
                  : timeLeftText(left)
            }
          />
        </dl>
      </CardContent>
    </Card>
  );
}

function Count({ label, value }: { label: string; value: number | string | undefined }) {
  return (
    <div className="flex flex-col">
      <dt>{label}</dt>
      <dd className="text-foreground font-medium tabular-nums">
        {value === undefined ? '—' : typeof value === 'number' ? formatCount(value) : value}
      </dd>
    </div>
  );
}

function FailedCard({ status }: { status: Power7Status }) {
  return (
    <Card role="alert" data-testid="power7-failed">
      <CardHeader>
        <CardTitle>
          {status.status === 'cancelled' ? 'The analysis was cancelled' : 'The analysis failed'}
        </CardTitle>
        <CardDescription>{status.error?.message ?? 'No reason was given.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link to={`/app/power7/parameters?from=${encodeURIComponent(status._id)}`}>
            <RotateCcw className="size-4" aria-hidden="true" /> New analysis with the same
            parameters
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function DoneSummary({ status }: { status: Power7Status }) {
  const c = status.counts;
  const seconds = (status.timings.totalMs ?? 0) / 1000;
  return (
    <Card data-testid="power7-done">
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-5">
          <Count label="Tickets" value={c.accepted} />
          <Count label="Rows rejected" value={c.rejected} />
          <Count label="Draws analysed" value={c.drawsEvaluated ?? c.draws} />
          <Count label="Within budget" value={c.drawsQualified} />
          <Count label="Analysis time" value={seconds ? `${seconds.toFixed(1)} s` : undefined} />
        </dl>
      </CardContent>
    </Card>
  );
}

function RejectedRows({ status }: { status: Power7Status }) {
  const { download, progress } = useDownload();
  const count = status.counts.rejected ?? 0;
  if (count === 0) return null;
  return (
    <Card data-testid="power7-rejected">
      <CardHeader>
        <CardTitle>
          {formatCount(count)} {count === 1 ? 'row was' : 'rows were'} rejected
        </CardTitle>
        <CardDescription>
          These rows are left out of the analysis. The first {status.rejectedSample.length} are
          shown; the report lists every one.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ScrollRegion label="Rejected rows" className="border">
          <table className="w-full text-sm">
            <caption className="sr-only">Rejected rows</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Line
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  Reason
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  Row
                </th>
              </tr>
            </thead>
            <tbody>
              {status.rejectedSample.map((row) => (
                <tr key={row.line} className="border-b last:border-0">
                  <td className="px-2 py-1 text-right tabular-nums">{row.line}</td>
                  <td className="px-2 py-1">{row.reason}</td>
                  <td className="text-muted-foreground max-w-96 truncate px-2 py-1 font-mono text-xs">
                    {row.raw}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {status.rejectedReport ? (
          <div>
            <Button
              variant="outline"
              disabled={progress !== null}
              onClick={() =>
                void download(status.rejectedReport!, `power7-${status._id}-rejected-rows.csv`)
              }
            >
              <Download className="size-4" aria-hidden="true" /> Download the full report
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
