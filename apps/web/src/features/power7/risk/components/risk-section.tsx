import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError, httpStatusOf } from '../../components/common';
import type { SessionBand } from '../../lib/insight';
import { useRiskInsight } from '../hooks/use-risk-insight';
import { ExceedanceChart } from './exceedance-chart';
import { ExposureSection } from './exposure-section';
import { LimitCalculator } from './limit-calculator';
import { PresetLimits, TailFigures } from './tail-figures';

/**
 * The exceedance curve on its own, for the budget insight to show beside its budget curve (the
 * question is the risk section's, answered once from the cache for both).
 */
export function RiskExceedance({
  session,
  band,
  currency,
  print = false,
}: SessionBand & {
  /** The printed report: no table toggle. */
  print?: boolean;
}) {
  const { answer, error } = useRiskInsight(session, band);
  // a failure says so once, in the risk section below
  if (error) return null;
  if (!answer) return <Skeleton className="h-80" aria-label="Loading the exceedance curve" />;
  return <ExceedanceChart answer={answer} band={band} currency={currency} print={print} />;
}

/**
 * The risk view of a finished session (issue #40): what limit to set for a chance of exceeding or
 * an expected excess, the expected shortfall, how far the budget is overshot, and where the tail
 * comes from — each exact over every draw.
 */
export function RiskSection({ session, band, currency }: SessionBand) {
  const { answer, error, retry } = useRiskInsight(session, band);
  // an analysis older than the exact insight: the budget insight above says so and how to rerun
  if (httpStatusOf(error) === 409) return null;
  return (
    <Card data-testid="power7-risk">
      <CardHeader>
        <CardTitle>Risk: limits and exposure</CardTitle>
        <CardDescription>
          What budget keeps the chance of paying more, or the expected excess, under a target; how
          large the most expensive draws are; and which combinations and customers make them up.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-8">
        {error ? (
          <LoadError error={error} onRetry={retry} title="The risk figures could not be loaded" />
        ) : !answer ? (
          <Skeleton className="h-64" aria-label="Loading the risk figures" />
        ) : (
          <div className="grid grid-cols-1 gap-6">
            <TailFigures answer={answer} band={band} currency={currency} />
            <PresetLimits answer={answer} currency={currency} />
          </div>
        )}
        <LimitCalculator session={session} currency={currency} />
        {answer ? (
          <ExposureSection session={session} band={band} draws={answer.draws} currency={currency} />
        ) : null}
      </CardContent>
    </Card>
  );
}
