import { Link } from 'react-router';
import type { InsightAnswer, SessionParams } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useBudgetInsight } from '../hooks/use-budget-insight';
import { usePower7Access } from '../../hooks/use-power7-access';
import { formatCount, formatMoney, formatShareOf } from '../../lib/format';
import {
  budgetBandOf,
  budgetCurve,
  coverageOf,
  histogramBins,
  type BudgetBand,
} from '../../lib/insight';
import { LoadError, httpStatusOf } from '../../components/common';
import { BudgetCurveChart, PayoutHistogram } from '../../components/insight-charts';
import {
  CoverageHeadline,
  KeyFigures,
  PercentileTable,
  WorstDraw,
} from '../../components/insight-summary';
import { TryBudget } from './try-budget';
import { RiskExceedance } from '../../risk/components/risk-section';

/**
 * What the budget means over every possible draw, exactly (`POST /api/insight/`): the share it
 * covers, the risk above it, percentiles, the worst draw, the distribution and the budget curve.
 * Two questions: the first gives the range of totals, the second counts the draws at each bin edge.
 */
export function BudgetInsight({
  session,
  params,
  currency,
}: {
  session: string;
  params: SessionParams;
  /** ISO 4217 code of the session's amounts, once sessions store one. */
  currency?: string;
}) {
  const band = budgetBandOf(params);
  const insight = useBudgetInsight(session, band);
  const { answer, edges, error } = insight;

  return (
    <Card data-testid="power7-insight">
      <CardHeader>
        <CardTitle>Budget insight</CardTitle>
        <CardDescription>
          Every draw is equally likely. Each figure counts all{' '}
          {insight.draws !== undefined ? formatCount(insight.draws) : ''} possible draws of 7
          numbers from a pool of {params.pool_size} exactly — nothing is sampled or estimated.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-8">
        {httpStatusOf(error) === 409 ? (
          <TooOldForInsight session={session} />
        ) : error ? (
          <LoadError
            error={error}
            onRetry={insight.retry}
            title="The budget insight could not be loaded"
          />
        ) : !answer || !edges ? (
          <Skeleton className="h-96" aria-label="Loading the budget insight" />
        ) : (
          <InsightBody
            session={session}
            answer={answer}
            edges={edges}
            band={band}
            currency={currency}
          />
        )}
      </CardContent>
    </Card>
  );
}

function InsightBody({
  session,
  answer,
  edges,
  band,
  currency,
}: {
  session: string;
  answer: InsightAnswer;
  edges: number[];
  band: BudgetBand;
  currency?: string;
}) {
  const { canDownload } = usePower7Access();
  const coverage = coverageOf(answer, band);
  const bins = histogramBins(answer, edges);
  const points = budgetCurve(answer);
  return (
    <>
      {coverage ? (
        <CoverageHeadline coverage={coverage} answer={answer} band={band} currency={currency} />
      ) : null}
      <KeyFigures answer={answer} currency={currency} />
      <div className="grid grid-cols-1 gap-8 md:grid-cols-2">
        <PercentileTable answer={answer} currency={currency} />
        <WorstDraw session={session} answer={answer} canOpen={canDownload} currency={currency} />
      </div>
      <PayoutHistogram bins={bins} band={band} draws={answer.draws} currency={currency} />
      {/* the share covered and the chance of paying more, side by side: the second keeps the tail in view */}
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <BudgetCurveChart
          points={points}
          band={band}
          currency={currency}
          summary={`Half of all draws pay at most ${formatMoney(answer.quantiles[50], currency)}, 99 % at most ${formatMoney(answer.quantiles[99], currency)}; your budget of ${formatMoney(band.max, currency)} covers ${coverage ? formatShareOf(coverage.draws, answer.draws) : '—'}${band.min !== null ? ' within its range' : ''}.`}
        />
        <RiskExceedance session={session} band={band} currency={currency} />
      </div>
      <TryBudget session={session} band={band} currency={currency} />
      <p className="text-muted-foreground text-xs">
        Method: every draw of 7 numbers from the pool is matched against every ticket; a draw’s
        total is what its winners are paid. Shares are counts over all draws, totals are exact to
        the cent.
      </p>
    </>
  );
}

export function TooOldForInsight({ session }: { session: string }) {
  return (
    <div role="status" className="grid gap-3 text-sm">
      <p>
        This analysis ran before the exact budget insight existed. Run it again to see what a budget
        covers; the draws below are unchanged.
      </p>
      <Button asChild variant="outline" className="w-fit">
        <Link to={`/app/power7/parameters?from=${encodeURIComponent(session)}`}>
          New analysis with the same parameters
        </Link>
      </Button>
    </div>
  );
}
