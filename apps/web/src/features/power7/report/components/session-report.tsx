import { skipToken } from '@reduxjs/toolkit/query';
import { Printer } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import type { Power7Status } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useProcessingStatusQuery } from '../../api/power7-endpoints';
import { useBudgetInsight } from '../../insight/hooks/use-budget-insight';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatPercent } from '../../lib/format';
import { currencyOf, moneyOf } from '../../lib/money';
import { budgetBandOf, budgetCurve, coverageOf, histogramBins } from '../../lib/insight';
import {
  countRows,
  formatDateTime,
  parameterRows,
  reportTitle,
  type ReportRow,
} from '../lib/report';
import { LoadError, NoPermission, httpStatusOf } from '../../components/common';
import { BudgetCurveChart, PayoutHistogram } from '../../components/insight-charts';
import {
  CoverageHeadline,
  KeyFigures,
  PercentileTable,
  WorstDraw,
} from '../../components/insight-summary';
import { TooOldForInsight } from '../../insight/components/budget-insight';
import { RiskExceedance } from '../../risk/components/risk-section';
import { ReportExposure, ReportLimits } from './report-risk';

/** The link that opens a session's printable report. */
export const reportLink = (session: string) =>
  `/app/power7/report?session=${encodeURIComponent(session)}`;

const processLink = (session: string) =>
  `/app/power7/process?session=${encodeURIComponent(session)}`;

/**
 * A finished session as a document to print (A4, see the print rules in index.css): parameters,
 * counts, the exact budget figures, the charts and the method, with no form and no toggle.
 */
export function SessionReport() {
  const [search] = useSearchParams();
  const session = search.get('session');
  const access = usePower7Access();
  const status = useProcessingStatusQuery(session && access.canRun ? { session } : skipToken);
  if (!access.canRun) {
    return <NoPermission permission={POWER7_PERMISSIONS.run} what="see Power 7 reports" />;
  }
  if (!session) return <ReportProblem title="No session chosen" session={null} />;
  if (httpStatusOf(status.error) === 404) {
    return (
      <ReportProblem
        title="This session no longer exists"
        detail="It expired (sessions are kept for 24 hours) or was cleared."
        session={null}
      />
    );
  }
  if (status.error) {
    return <LoadError error={status.error} onRetry={() => void status.refetch()} />;
  }
  if (!status.data) return <Skeleton className="h-96" aria-label="Loading the report" />;
  if (status.data.status !== 'done') {
    return (
      <ReportProblem
        title="This analysis has not finished"
        detail="A report can be printed once the analysis is done."
        session={session}
      />
    );
  }
  return <Report status={status.data} />;
}

function ReportProblem({
  title,
  detail,
  session,
}: {
  title: string;
  detail?: string;
  session: string | null;
}) {
  return (
    <Card role="alert" data-testid="power7-report-problem">
      <PageTitle title="Power 7 · Report" />
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {detail ? <CardDescription>{detail}</CardDescription> : null}
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link to={session ? processLink(session) : '/app/power7'}>
            {session ? 'Back to the analysis' : 'Your sessions'}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function Report({ status }: { status: Power7Status }) {
  const title = reportTitle(status);
  // a range's draws on each side of it: the figures' own insight answer (cached, asked once)
  const band = budgetBandOf(status.params);
  const { answer } = useBudgetInsight(status._id, band);
  const coverage = answer ? coverageOf(answer, band) : null;
  const sides =
    coverage?.below !== undefined && coverage.above !== undefined
      ? { below: coverage.below, above: coverage.above }
      : null;
  return (
    <article
      className="mx-auto grid w-full max-w-4xl grid-cols-1 gap-8 print:max-w-none print:gap-6 print:text-[10pt]"
      data-testid="power7-report"
    >
      <PageTitle title={`Power 7 · Report · ${title}`} />
      <header className="grid gap-3 border-b pb-4">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1">
            <p className="text-muted-foreground text-sm">Power 7 analysis report</p>
            <h1 className="text-2xl font-semibold tracking-tight break-all">{title}</h1>
          </div>
          <div className="flex flex-wrap gap-2 print:hidden">
            <Button asChild variant="outline">
              <Link to={processLink(status._id)}>Back to the analysis</Link>
            </Button>
            <Button type="button" onClick={() => window.print()}>
              <Printer className="size-4" aria-hidden="true" /> Print
            </Button>
          </div>
        </div>
        <p className="text-muted-foreground text-sm">
          Generated {formatDateTime(new Date())}
          {status.finishedAt ? ` · analysis finished ${formatDateTime(status.finishedAt)}` : ''}
        </p>
      </header>
      <ReportSection title="Parameters">
        <RowList rows={parameterRows(status)} testId="power7-report-parameters" />
      </ReportSection>
      <ReportSection title="Counts">
        <RowList rows={countRows(status, sides)} testId="power7-report-counts" />
      </ReportSection>
      <ReportFigures status={status} />
      <ReportSection title="Chance of paying more than an amount">
        <RiskExceedance
          session={status._id}
          band={band}
          currency={currencyOf(status.params)}
          print
        />
      </ReportSection>
      <ReportSection title="Limits for a chance of exceeding, and expected shortfall">
        <ReportLimits status={status} />
      </ReportSection>
      <ReportSection title="Where the cost above the budget comes from" keepTogether={false}>
        <ReportExposure status={status} />
      </ReportSection>
      <Method poolSize={status.params.pool_size} />
    </article>
  );
}

function ReportSection({
  title,
  children,
  keepTogether = true,
}: {
  title: string;
  children: React.ReactNode;
  /** Short sections stay on one page; a long one may break between its parts. */
  keepTogether?: boolean;
}) {
  return (
    <section
      className={`grid min-w-0 grid-cols-1 gap-3 ${keepTogether ? 'break-inside-avoid' : ''}`}
      aria-label={title}
    >
      <h2 className="text-lg font-semibold break-after-avoid">{title}</h2>
      {children}
    </section>
  );
}

/** Label and value pairs in two columns, one pair never split across pages. */
function RowList({ rows, testId }: { rows: ReportRow[]; testId: string }) {
  return (
    <dl
      // columns, not a grid: the pairs read down the first column, then the second
      className="gap-x-8 text-sm sm:columns-2 print:columns-2"
      data-testid={testId}
    >
      {rows.map((row) => (
        <div
          key={row.label}
          className="flex justify-between gap-4 border-b py-1 break-inside-avoid"
        >
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd className="text-right font-medium tabular-nums">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The exact figures of `POST /api/insight/`, the same parts as the results screen in their print form. */
function ReportFigures({ status }: { status: Power7Status }) {
  const band = budgetBandOf(status.params);
  const { answer, edges, error, retry } = useBudgetInsight(status._id, band);
  if (httpStatusOf(error) === 409) {
    return (
      <ReportSection title="Budget figures">
        <TooOldForInsight session={status._id} />
      </ReportSection>
    );
  }
  if (error) {
    return (
      <LoadError error={error} onRetry={retry} title="The budget figures could not be loaded" />
    );
  }
  if (!answer || !edges) {
    return <Skeleton className="h-96" aria-label="Loading the budget figures" />;
  }
  const coverage = coverageOf(answer, band);
  const points = budgetCurve(answer);
  // amounts in the session's currency when it has one (an ISO code chosen at upload or rerun)
  const currency = currencyOf(status.params);
  const money = moneyOf(status.params);
  return (
    <>
      <ReportSection title="Budget needed per share of draws">
        <PercentileTable answer={answer} currency={currency} />
      </ReportSection>
      <ReportSection title="Budget figures">
        {coverage ? (
          <CoverageHeadline coverage={coverage} answer={answer} band={band} currency={currency} />
        ) : null}
        <KeyFigures answer={answer} currency={currency} />
      </ReportSection>
      <ReportSection title="Most expensive draw">
        <WorstDraw session={status._id} answer={answer} canOpen={false} currency={currency} />
      </ReportSection>
      <ReportSection title="Distribution of total payouts" keepTogether={false}>
        <div className="break-inside-avoid">
          <PayoutHistogram
            bins={histogramBins(answer, edges)}
            band={band}
            draws={answer.draws}
            currency={currency}
            print
          />
        </div>
        <div className="break-inside-avoid">
          <BudgetCurveChart
            points={points}
            band={band}
            currency={currency}
            print
            summary={`Half of all draws pay at most ${money(answer.quantiles[50])}, 99 % at most ${money(answer.quantiles[99])}; the budget of ${money(band.max)} covers ${coverage ? formatPercent(coverage.share) : '—'}${band.min !== null ? ' within its range' : ''}.`}
          />
        </div>
      </ReportSection>
    </>
  );
}

function Method({ poolSize }: { poolSize: number }) {
  return (
    <ReportSection title="Method">
      <div className="grid max-w-prose gap-2 text-sm print:max-w-none">
        <p>
          Every possible draw of 7 numbers from the pool of {poolSize}, C({poolSize}, 7) of them, is
          evaluated exactly: each draw is matched against every accepted ticket, and the draw’s
          total is what its winners are paid at the payouts above. Every draw is taken as equally
          likely; nothing is sampled or estimated, so each share is a count of draws divided by the
          number of draws.
        </p>
        <p>
          The budget needed for a share of draws (a quantile) is the smallest total that at least
          that share of draws stays at or below: a budget of the 99 % figure pays every winner in 99
          of every 100 draws. The chance of exceeding a budget is the share of draws that pay more
          than it; the expected excess is the amount above the budget averaged over all draws, those
          within it counting as zero.
        </p>
        <p>
          The limit for a chance of exceeding, such as 1 in 1,000, is the smallest budget that at
          most that share of draws pay more than; where the chance allows no draw at all, it is the
          worst draw. The expected shortfall at 99 % is the mean total of the most expensive 1 % of
          draws. The exposure ranking adds up, over the draws that pay more than the budget, what
          each combination’s tickets are paid in them; its share is that sum over the draws’ totals.
        </p>
        <p>
          The figures come from the Power 7 service’s analysis of this session (its insight answer,{' '}
          <code>POST /api/insight/</code>), exact to the cent. Rejected rows of the file are left
          out; the parameters above count them.
        </p>
      </div>
    </ReportSection>
  );
}
