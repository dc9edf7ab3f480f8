import { useId, useMemo, useState } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SessionParams } from '@pa/contracts/power7';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useFilterDrawsQuery } from '../api/power7-endpoints';
import {
  budgetCurve,
  budgetForShare,
  coverageOf,
  finestHistogram,
  type CoverageReading,
} from '../lib/budget-curve';
import { formatCount, formatMoney, formatPercent } from '../lib/format';
import { LoadError, NumberBalls } from './common';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "99.2 %", or "between 98.1 % and 99.4 %" when the budget falls inside a histogram bin. */
export function coverageText(reading: CoverageReading): string {
  if (reading.exact || formatPercent(reading.low) === formatPercent(reading.high)) {
    return formatPercent(reading.low);
  }
  return `between ${formatPercent(reading.low)} and ${formatPercent(reading.high)}`;
}

/**
 * What the budget means over every possible draw: the histogram of total payouts with the budget
 * band, the spread, the worst case, and the budget curve with a read-out for any budget.
 */
export function BudgetInsight({ session, params }: { session: string; params: SessionParams }) {
  const query = useFilterDrawsQuery({ session, page: 1, pageSize: 1 });
  const stats = query.data?.stats;
  const sessionBudget =
    params.budget_type === 'fixed' ? (params.budget ?? 0) : (params.budget_max ?? 0);
  const [tried, setTried] = useState(String(sessionBudget));
  const inputId = useId();
  const curve = useMemo(
    () => (stats ? budgetCurve(finestHistogram(stats), stats.draws) : []),
    [stats],
  );
  const bars = useMemo(
    () =>
      stats
        ? stats.histogram.counts.map((count, i) => ({
            from: stats.histogram.edges[i]!,
            to: stats.histogram.edges[i + 1]!,
            mid: (stats.histogram.edges[i]! + stats.histogram.edges[i + 1]!) / 2,
            count,
          }))
        : [],
    [stats],
  );
  if (query.error) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!stats) return <Skeleton className="h-80" aria-label="Loading the budget insight" />;

  const triedValue = Number(tried);
  const triedValid = tried.trim() !== '' && Number.isFinite(triedValue) && triedValue >= 0;
  const reading = triedValid ? coverageOf(triedValue, stats) : null;
  const bandFrom = params.budget_type === 'fixed' ? stats.min : (params.budget_min ?? 0);
  const bandTo = sessionBudget;
  const for99 = budgetForShare(finestHistogram(stats), stats.draws, 0.99);
  const first = stats.histogram.edges[0] ?? 0;
  const last = stats.histogram.edges[stats.histogram.edges.length - 1] ?? 0;

  return (
    <Card data-testid="power7-insight">
      <CardHeader>
        <CardTitle>Budget insight</CardTitle>
        <CardDescription>
          Total payout of every one of the {formatCount(stats.draws)} possible draws, and how much
          of them a budget covers.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          <Stat label="Smallest total" value={formatMoney(stats.min)} />
          <Stat label="Mean total" value={formatMoney(stats.mean)} />
          <Stat label="Largest total" value={formatMoney(stats.max)} />
          <Stat label="Your budget covers" value={coverageText(coverageOf(sessionBudget, stats))} />
        </dl>
        <div className="grid gap-1 text-sm">
          <span className="text-muted-foreground">Worst-case draw</span>
          <div className="flex flex-wrap items-center gap-3">
            <NumberBalls
              numbers={stats.worstDraw.numbers}
              label={`Worst-case draw ${stats.worstDraw.numbers.join(', ')}`}
            />
            <span className="font-medium tabular-nums">
              pays {formatMoney(stats.worstDraw.totalPayout)}
            </span>
          </div>
        </div>

        <figure className="grid gap-2">
          <figcaption className="text-sm font-medium">
            Draws by total payout{' '}
            <span className="text-muted-foreground font-normal">
              (shaded: your budget, {formatMoney(bandFrom)} – {formatMoney(bandTo)})
            </span>
          </figcaption>
          <div className="h-56 w-full" data-testid="power7-histogram">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
                <XAxis
                  dataKey="mid"
                  type="number"
                  domain={[first, last]}
                  tickFormatter={(v: number) => compact.format(v)}
                  className="text-xs"
                  stroke="currentColor"
                />
                <YAxis
                  tickFormatter={(v: number) => compact.format(v)}
                  width={56}
                  className="text-xs"
                  stroke="currentColor"
                />
                <ReferenceArea
                  x1={Math.max(first, bandFrom)}
                  x2={Math.min(last, bandTo)}
                  fill="var(--primary)"
                  fillOpacity={0.12}
                  ifOverflow="hidden"
                />
                <Tooltip
                  cursor={{ fill: 'var(--accent)' }}
                  contentStyle={{
                    background: 'var(--popover)',
                    color: 'var(--popover-foreground)',
                    border: '1px solid var(--border)',
                    borderRadius: 8,
                  }}
                  labelFormatter={(_, payload) => {
                    const bin = payload?.[0]?.payload as (typeof bars)[number] | undefined;
                    return bin ? `${formatMoney(bin.from)} – ${formatMoney(bin.to)}` : '';
                  }}
                  formatter={(value) => [formatCount(Number(value)), 'draws']}
                />
                <Bar dataKey="count" fill="var(--primary)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </figure>

        <figure className="grid gap-3">
          <figcaption className="text-sm font-medium">
            Budget curve: share of draws a budget covers{' '}
            <span className="text-muted-foreground font-normal">
              (99 % of draws need a budget of at most {formatMoney(for99)})
            </span>
          </figcaption>
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-2">
              <Label htmlFor={inputId}>Try a budget</Label>
              <Input
                id={inputId}
                inputMode="decimal"
                className="w-44"
                value={tried}
                onChange={(event) => setTried(event.target.value)}
              />
            </div>
            <p className="pb-2 text-sm" aria-live="polite" data-testid="power7-coverage">
              {reading
                ? `A budget of ${formatMoney(triedValue)} covers ${coverageText(reading)} of draws.`
                : 'Enter an amount of 0 or more.'}
            </p>
          </div>
          <div className="h-56 w-full" data-testid="power7-curve">
            <ResponsiveContainer width="100%" height="100%">
              <AreaChart
                data={curve}
                margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
                onClick={(state) => {
                  const budget = Number(state?.activeLabel);
                  if (Number.isFinite(budget)) setTried(String(budget));
                }}
              >
                <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
                <XAxis
                  dataKey="budget"
                  type="number"
                  domain={[first, last]}
                  tickFormatter={(v: number) => compact.format(v)}
                  className="text-xs"
                  stroke="currentColor"
                />
                <YAxis
                  domain={[0, 1]}
                  tickFormatter={(v: number) => `${Math.round(v * 100)} %`}
                  width={56}
                  className="text-xs"
                  stroke="currentColor"
                />
                {triedValid ? (
                  <ReferenceLine
                    x={Math.min(Math.max(triedValue, first), last)}
                    stroke="var(--destructive)"
                    strokeDasharray="4 4"
                  />
                ) : null}
                <Tooltip
                  contentStyle={{
                    background: 'var(--popover)',
                    color: 'var(--popover-foreground)',
                    border: '1px solid var(--border)',
                    borderRadius: 8,
                  }}
                  labelFormatter={(v) => `Budget below ${formatMoney(Number(v))}`}
                  formatter={(value) => [formatPercent(Number(value)), 'of draws']}
                />
                <Area
                  type="stepAfter"
                  dataKey="share"
                  stroke="var(--primary)"
                  fill="var(--primary)"
                  fillOpacity={0.15}
                  isAnimationActive={false}
                />
              </AreaChart>
            </ResponsiveContainer>
          </div>
        </figure>
      </CardContent>
    </Card>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
