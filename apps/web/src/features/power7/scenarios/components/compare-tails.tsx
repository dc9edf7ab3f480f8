import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { Line, LineChart, Tooltip } from 'recharts';
import { INSIGHT_MAX_BUDGETS, type InsightAnswer, type InsightBody } from '@pa/contracts/power7';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/api-error';
import { useInsightQuery } from '../../api/power7-endpoints';
import { formatShareOf } from '../../lib/format';
import { amountAt, budgetBandOf, histogramEdges, logPosition } from '../../lib/insight';
import { currencyOf, money, moneyOf, moneyShort } from '../../lib/money';
import { chanceTickLabel, chanceTicks } from '../../risk/lib/exceedance';
import { ChartFigure, TOOLTIP_PROPS } from '../../components/chart-figure';
import type { Compared } from './compare-view';
import {
  LegendItem,
  chanceAxis,
  chartGrid,
  logAmountAxis,
  markDot,
} from '../../components/chart-parts';
import { ChartBox } from '../../components/insight-charts';
import { RowsTable, type Column } from '../../components/rows-table';

/** Line colours and dashes of the three runs (the dash tells them apart without colour). */
export const SERIES = [
  { stroke: 'var(--primary)', dash: undefined },
  { stroke: '#0d9488', dash: '6 3' },
  { stroke: '#d97706', dash: '2 3' },
];

/** The runs' currency when they share one (amounts of runs in different currencies stay plain). */
function sharedCurrency(compared: Compared[]): string | undefined {
  const currencies = new Set(compared.map((x) => currencyOf(x.status.params) ?? ''));
  return currencies.size === 1 ? [...currencies][0] || undefined : undefined;
}

/** Log-spaced amounts of the shared scale; each run's budget and worst draw come on top. */
const STEPS = 36;
const toCents = (value: number) => Math.round(value * 100) / 100;

/**
 * The amounts every compared run is asked about, so their curves and the table share one scale:
 * evenly spaced on log(1 + total) from the smallest total of any run to the largest, plus each run's
 * budget and one cent below its worst draw (how many draws pay that much), at most
 * INSIGHT_MAX_BUDGETS.
 */
export function sharedBudgets(answers: Pick<InsightAnswer, 'min' | 'max'>[], extra: number[]) {
  if (!answers.length) return [];
  const min = Math.min(...answers.map((a) => a.min));
  const max = Math.max(...answers.map((a) => a.max));
  const worst = answers.filter((a) => a.max - 0.01 >= a.min).map((a) => toCents(a.max - 0.01));
  const must = [...extra, ...worst].map(toCents).filter((b) => b >= min && b <= max);
  const edges = histogramEdges(min, max, STEPS).filter((b) => !must.includes(b));
  return [...new Set(must), ...edges].slice(0, INSIGHT_MAX_BUDGETS).sort((a, b) => a - b);
}

/** One run's answer at the shared amounts (a fixed slot: hooks are not called in a loop). */
function useTail(x: Compared | undefined, budgets: number[]) {
  const body: InsightBody | null =
    x?.insight && budgets.length ? { session: x.status._id, budgets } : null;
  const query = useInsightQuery(body ?? skipToken);
  return { data: query.data, error: query.error };
}

interface TailPoint {
  budget: number;
  exceeding: number;
  x: number;
  y: number;
}

/** A run's curve: the shared amounts with at least one draw above them (0 has no place on a log axis). */
const tailOf = (answer: InsightAnswer): TailPoint[] =>
  answer.budgets
    .filter((b) => b.exceeding > 0)
    .sort((a, b) => a.budget - b.budget)
    .map((b) => ({
      budget: b.budget,
      exceeding: b.exceeding,
      x: logPosition(b.budget),
      y: Math.log10(b.exceeding / answer.draws),
    }));

/** Ticks of the amount axis: the powers of ten inside the scale, or six even steps when too few. */
function amountTicks(min: number, max: number): number[] {
  const [lo, hi] = [logPosition(min), logPosition(max)];
  const powers: number[] = [];
  for (let p = 1; p <= max; p *= 10) if (p >= min) powers.push(logPosition(p));
  if (powers.length >= 3) return powers;
  return Array.from({ length: 6 }, (_, i) => lo + ((hi - lo) * i) / 5);
}

/**
 * The runs' tails on one chart: the chance that a draw pays more than an amount, the amount and the
 * chance both on log scales (a linear scale put every curve at ~100 % within its first pixel), each
 * run's budget marked on its curve; and the same figures as a table.
 */
export function CompareTails({ compared }: { compared: Compared[] }) {
  // the shared amounts once every run's own answer is in (or failed), so they are asked once
  const settled = compared.every((x) => x.insight || x.insightError);
  const answered = settled ? compared.filter((x) => x.insight) : [];
  const overviews = answered.map((x) => x.insight!);
  const extra = answered.map((x) => budgetBandOf(x.status.params).max);
  const key = JSON.stringify([overviews.map((a) => [a.min, a.max]), extra]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key holds every input
  const budgets = useMemo(() => sharedBudgets(overviews, extra), [key]);
  const slots = [
    useTail(compared[0], budgets),
    useTail(compared[1], budgets),
    useTail(compared[2], budgets),
  ];
  const runs = compared.map((x, i) => ({
    x,
    tail: slots[i]!.data,
    error: x.insightError ?? slots[i]!.error,
  }));
  const ready = settled && runs.every((r) => r.tail || r.error);
  const drawn = runs.filter((r) => r.tail);
  return (
    <Card>
      <CardHeader>
        <CardTitle>How far each run's tail reaches</CardTitle>
        <CardDescription>
          The chance that a draw pays more than an amount, for every run at the same amounts.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!ready ? (
          <Skeleton className="h-72" aria-label="Loading the runs' tails" />
        ) : drawn.length ? (
          <TailsFigure
            compared={drawn.map((r) => r.x)}
            tails={drawn.map((r) => r.tail!)}
            budgets={budgets}
          />
        ) : null}
        {ready
          ? runs
              .filter((r) => !r.tail)
              .map(({ x, error }) => (
                <p key={x.status._id} className="text-sm" data-testid="power7-compare-no-tail">
                  No curve for {x.label}: {errorMessage(error)}
                </p>
              ))
          : null}
      </CardContent>
    </Card>
  );
}

/** A run's answer at one of the shared amounts (compared to the cent). */
const atBudget = (answer: InsightAnswer, budget: number) =>
  answer.budgets.find((b) => toCents(b.budget) === toCents(budget));

/** The runs drawn (those with an answer), their answers at the shared amounts, and those amounts. */
interface TailsProps {
  compared: Compared[];
  tails: InsightAnswer[];
  budgets: number[];
}

function TailsFigure({ compared, tails, budgets }: TailsProps) {
  // one currency for the axis when the runs share one; else plain amounts, and the title says why
  const shared = sharedCurrency(compared);
  const mixed = new Set(compared.map((x) => currencyOf(x.status.params) ?? '')).size > 1;
  const [lo, hi] = [budgets[0] ?? 0, budgets.at(-1) ?? 0];
  return (
    <ChartFigure
      testId="power7-compare-curves"
      title="Chance a draw pays more than an amount"
      summary={
        <>
          Both axes on log scales, from {money(lo, shared)} to {money(hi, shared)} and down to a
          single draw; lower is safer.
          {mixed ? " The runs' currencies differ: the axis shows plain amounts." : ''} Each curve
          ends at its run's worst draw:{' '}
          {compared
            .map((x, i) => `${x.label} — ${moneyOf(x.status.params)(tails[i]!.max)}`)
            .join('; ')}
          .
        </>
      }
      chart={
        <div className="grid gap-2">
          <TailsDrawing compared={compared} tails={tails} lo={lo} hi={hi} shared={shared} />
          <TailsLegend compared={compared} />
        </div>
      }
      table={<TailsTable compared={compared} tails={tails} budgets={budgets} />}
    />
  );
}

/** The runs' curves on log axes, each run's own budget a dot on its curve. */
function TailsDrawing({
  compared,
  tails,
  lo,
  hi,
  shared,
}: {
  compared: Compared[];
  tails: InsightAnswer[];
  lo: number;
  hi: number;
  /** The runs' currency, when they share one. */
  shared: string | undefined;
}) {
  const mostDraws = Math.max(...tails.map((t) => t.draws));
  const curves = tails.map(tailOf);
  return (
    // taller than the results screen's charts: up to three curves share it
    <ChartBox print={false} className="h-80 w-full overflow-hidden">
      <LineChart margin={{ top: 16, right: 16, bottom: 24, left: 0 }} title="Runs' tails">
        {chartGrid(true)}
        {logAmountAxis({
          domain: [logPosition(lo), logPosition(hi)],
          ticks: amountTicks(lo, hi),
          money: (amount) => moneyShort(amount, shared),
          title: `Amount${shared ? ` in ${shared}` : ''} (log scale)`,
          allowDuplicatedCategory: false,
        })}
        {chanceAxis(chanceTicks(mostDraws), chanceTickLabel)}
        <Tooltip
          {...TOOLTIP_PROPS}
          labelFormatter={(x) => `More than ${money(amountAt(Number(x)), shared)}`}
          formatter={(_value, name, item) => {
            const i = compared.findIndex((x) => x.label === name);
            const point = item.payload as TailPoint;
            return [formatShareOf(point.exceeding, tails[i]?.draws ?? 0), name];
          }}
        />
        {compared.map((x, i) => (
          <Line
            key={x.status._id}
            data={curves[i]}
            dataKey="y"
            name={x.label}
            type="linear"
            dot={false}
            stroke={SERIES[i]!.stroke}
            strokeDasharray={SERIES[i]!.dash}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
        {compared.map((x, i) => {
          const own = budgetBandOf(x.status.params).max;
          const at = atBudget(tails[i]!, own);
          return at && at.exceeding > 0
            ? markDot(
                logPosition(own),
                Math.log10(at.exceeding / tails[i]!.draws),
                SERIES[i]!.stroke,
                `budget-${x.status._id}`,
              )
            : null;
        })}
      </LineChart>
    </ChartBox>
  );
}

/** The legend in the page, not in the drawing: three long run names squeezed the plot. */
function TailsLegend({ compared }: { compared: Compared[] }) {
  return (
    <ul className="grid gap-1 text-xs" data-testid="power7-compare-legend">
      {compared.map((x, i) => (
        <LegendItem
          key={x.status._id}
          mark={
            <svg aria-hidden="true" width="28" height="8" className="shrink-0">
              <line
                x1="0"
                y1="4"
                x2="28"
                y2="4"
                stroke={SERIES[i]!.stroke}
                strokeWidth="2"
                strokeDasharray={SERIES[i]!.dash}
              />
            </svg>
          }
        >
          {x.label}
        </LegendItem>
      ))}
      <LegendItem
        className="text-muted-foreground"
        mark={
          <span aria-hidden="true" className="flex w-7 justify-center">
            <span className="bg-foreground inline-block size-2.5 rounded-full" />
          </span>
        }
      >
        A dot on a curve: that run's own budget.
      </LegendItem>
    </ul>
  );
}

function TailsTable({ compared, tails, budgets }: TailsProps) {
  const runColumns = compared.map((x, i): Column<number> => ({
    key: x.status._id,
    head: x.label,
    figure: true,
    headClassName: 'min-w-40 whitespace-normal',
    className: 'whitespace-normal',
    cell: (budget) => {
      const b = atBudget(tails[i]!, budget);
      return b ? (b.exceeding === 0 ? 'none' : formatShareOf(b.exceeding, tails[i]!.draws)) : '—';
    },
  }));
  return (
    <RowsTable
      label="Draws paying more than an amount, per run"
      scrollLabel="Runs' tails, as a table"
      testId="power7-compare-tails-table"
      columns={[
        {
          key: 'budget',
          head: 'More than',
          figure: true,
          cell: (budget) => money(budget, sharedCurrency(compared)),
        },
        ...runColumns,
      ]}
      rows={budgets}
      rowKey={(budget) => budget}
    />
  );
}
