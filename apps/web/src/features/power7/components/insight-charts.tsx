import { cloneElement } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  Cell,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCount, formatMoney, formatMoneyShort, formatPercent } from '../lib/format';
import {
  amountAt,
  logPosition,
  type BudgetBand,
  type CurvePoint,
  type HistogramBin,
} from '../lib/insight';
import { ChartFigure, TOOLTIP_PROPS } from './chart-figure';
import {
  AXIS_PROPS,
  BUDGET_MARK,
  axisTitle,
  budgetLine,
  chartGrid,
  logAmountAxis,
} from './chart-parts';
import { RowsTable } from './rows-table';

/**
 * A chart's box: it clips, since recharts leaves a tooltip where it was when the window narrows and
 * one left beyond the new edge would widen the page.
 */
const CHART_BOX = 'h-64 w-full overflow-hidden';
/** The printed chart's drawing size: it fits A4's 180 mm text width, and scales down on a narrow screen. */
const PRINT_SIZE = { width: 640, height: 256 } as const;

/**
 * The chart's box: on screen it follows its container; in print it is drawn at a fixed size (a
 * container measured on screen would be the wrong width on paper) and scaled by its viewBox.
 */
export function ChartBox({
  print,
  className = CHART_BOX,
  children,
}: {
  print: boolean;
  /** The on-screen box (its height), when not the results screen's. */
  className?: string;
  children: React.ReactElement;
}) {
  if (print) {
    return (
      <div className="w-full overflow-hidden [&_.recharts-wrapper]:h-auto! [&_.recharts-wrapper]:max-w-full! [&_svg]:h-auto [&_svg]:max-w-full">
        {cloneElement(children, PRINT_SIZE)}
      </div>
    );
  }
  return (
    <div className={className}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** Where a bin stands against the budget: paid in full, above the ceiling, below a range's floor. */
const [PRIMARY, DESTRUCTIVE, MUTED] = [
  'var(--primary)',
  'var(--destructive)',
  'var(--muted-foreground)',
];
function binColour(bin: HistogramBin, band: BudgetBand): string {
  if (bin.from >= band.max) return DESTRUCTIVE;
  if (band.min !== null && bin.to <= band.min) return MUTED;
  return PRIMARY;
}

const countFormat = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

/**
 * Draws per band of total payout. Bins are evenly spaced on a log scale of the total, so the tail
 * keeps bars of its own; any bin with a draw is at least a few pixels tall, so the worst draw shows.
 */
export function PayoutHistogram({
  bins,
  band,
  draws,
  currency,
  print = false,
}: {
  bins: HistogramBin[];
  band: BudgetBand;
  draws: number;
  currency?: string;
  /** The printed report's variant: fixed size, no tooltip, no table toggle. */
  print?: boolean;
}) {
  const data = bins.map((bin, index) => ({ ...bin, index }));
  const last = bins[bins.length - 1];
  const drawsWhere = (colour: string) =>
    bins.filter((b) => binColour(b, band) === colour).reduce((sum, b) => sum + b.draws, 0);
  const [within, above, below] = [drawsWhere(PRIMARY), drawsWhere(DESTRUCTIVE), drawsWhere(MUTED)];
  return (
    <ChartFigure
      testId="power7-histogram"
      print={print}
      title="Draws by total payout"
      summary={
        <>
          {formatCount(draws)} draws from {formatMoney(bins[0]?.from ?? 0, currency)} to{' '}
          {formatMoney(last?.to ?? 0, currency)}, on a log scale so the rare expensive draws stay
          visible. Blue: {formatCount(within)} within your budget; red: {formatCount(above)} pay
          more than {formatMoney(band.max, currency)}
          {band.min !== null
            ? `; grey: ${formatCount(below)} below ${formatMoney(band.min, currency)}`
            : ''}
          .
        </>
      }
      chart={
        <ChartBox print={print}>
          <BarChart
            data={data}
            margin={{ top: 8, right: 8, bottom: 16, left: 8 }}
            barCategoryGap={1}
            accessibilityLayer={!print}
            title="Draws by total payout"
          >
            {chartGrid()}
            <XAxis
              dataKey="index"
              type="category"
              interval="preserveStartEnd"
              minTickGap={16}
              tickFormatter={(i: number) => formatMoneyShort(bins[i]?.to ?? 0, currency)}
              label={axisTitle('Total payout (log scale)', 'x')}
              {...AXIS_PROPS}
            />
            <YAxis
              tickFormatter={(v: number) => countFormat.format(v)}
              width={64}
              label={axisTitle('Draws', 'y')}
              {...AXIS_PROPS}
            />
            {print ? null : (
              <Tooltip
                cursor={{ fill: 'var(--accent)' }}
                {...TOOLTIP_PROPS}
                labelFormatter={(_, payload) => {
                  const bin = payload?.[0]?.payload as HistogramBin | undefined;
                  return bin
                    ? `${formatMoney(bin.from, currency)} – ${formatMoney(bin.to, currency)}`
                    : '';
                }}
                formatter={(value) => [
                  `${formatCount(Number(value))} (${formatPercent(Number(value) / draws)})`,
                  'Draws',
                ]}
              />
            )}
            <Bar
              dataKey="draws"
              isAnimationActive={false}
              minPointSize={(value) => (Number(value) > 0 ? 3 : 0)}
            >
              {data.map((bin) => (
                <Cell key={bin.index} fill={binColour(bin, band)} />
              ))}
            </Bar>
          </BarChart>
        </ChartBox>
      }
      table={<HistogramTable bins={bins} draws={draws} currency={currency} />}
    />
  );
}

function HistogramTable({
  bins,
  draws,
  currency,
}: {
  bins: HistogramBin[];
  draws: number;
  currency?: string;
}) {
  return (
    <RowsTable
      label="Draws by total payout"
      scrollLabel="Draws by total payout, as a table"
      columns={[
        { head: 'Total payout from', figure: true, cell: (bin) => formatMoney(bin.from, currency) },
        { head: 'to', figure: true, cell: (bin) => formatMoney(bin.to, currency) },
        { head: 'Draws', figure: true, cell: (bin) => formatCount(bin.draws) },
        { head: 'Share', figure: true, cell: (bin) => formatPercent(bin.draws / draws) },
      ]}
      rows={bins.filter((bin) => bin.draws > 0)}
      rowKey={(bin) => bin.to}
    />
  );
}

/** Tick positions on the log axis: the curve's own budgets, about `count` of them, ends included. */
function logTicks(points: CurvePoint[], count = 6): number[] {
  if (points.length <= count) return points.map((p) => logPosition(p.budget));
  const step = (points.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => logPosition(points[Math.round(i * step)]!.budget));
}

/** The share of draws a budget covers, against the budget on a log scale, with the session's budget marked. */
export function BudgetCurveChart({
  points,
  band,
  summary,
  currency,
  print = false,
}: {
  points: CurvePoint[];
  band: BudgetBand;
  summary: React.ReactNode;
  currency?: string;
  /** The printed report's variant: fixed size, no tooltip, no table toggle. */
  print?: boolean;
}) {
  const data = points.map((p) => ({ ...p, x: logPosition(p.budget) }));
  return (
    <ChartFigure
      testId="power7-curve"
      print={print}
      title="Budget curve: share of draws a budget covers"
      summary={summary}
      chart={
        <div className="grid gap-2">
          <ChartBox print={print}>
            <AreaChart
              data={data}
              margin={{ top: 16, right: 16, bottom: 16, left: 8 }}
              accessibilityLayer={!print}
              title="Budget curve"
            >
              {chartGrid()}
              {logAmountAxis({
                domain: ['dataMin', 'dataMax'],
                ticks: logTicks(points),
                money: (amount) => formatMoneyShort(amount, currency),
                title: `Budget${currency ? ` in ${currency}` : ''} (log scale)`,
              })}
              <YAxis
                domain={[0, 1]}
                tickFormatter={(v: number) => `${Math.round(v * 100)} %`}
                width={64}
                label={axisTitle('Draws covered', 'y')}
                {...AXIS_PROPS}
              />
              {band.min !== null ? (
                <ReferenceArea
                  x1={logPosition(band.min)}
                  x2={logPosition(band.max)}
                  fill="var(--primary)"
                  fillOpacity={0.1}
                  ifOverflow="hidden"
                />
              ) : null}
              {budgetLine(band.max)}
              {print ? null : (
                <Tooltip
                  {...TOOLTIP_PROPS}
                  labelFormatter={(x) => `Budget ${formatMoney(amountAt(Number(x)), currency)}`}
                  formatter={(value, _name, item) => [
                    `${formatPercent(Number(value))} (${formatCount((item.payload as CurvePoint).covered)} draws)`,
                    'Covers',
                  ]}
                />
              )}
              <Area
                type="stepAfter"
                dataKey="share"
                stroke="var(--primary)"
                fill="var(--primary)"
                fillOpacity={0.15}
                isAnimationActive={false}
              />
            </AreaChart>
          </ChartBox>
          {/* a legend beside the chart: a label inside it collides with the curve or the axis */}
          <p className="text-muted-foreground flex items-center gap-2 text-xs">
            {BUDGET_MARK}
            Your budget, {formatMoney(band.max, currency)}
            {band.min !== null
              ? ` (shaded: the range from ${formatMoney(band.min, currency)})`
              : ''}
          </p>
        </div>
      }
      table={<CurveTable points={points} currency={currency} />}
    />
  );
}

function CurveTable({ points, currency }: { points: CurvePoint[]; currency?: string }) {
  return (
    <RowsTable
      label="Budget curve"
      scrollLabel="Budget curve, as a table"
      columns={[
        { head: 'Budget', figure: true, cell: (p) => formatMoney(p.budget, currency) },
        { head: 'Draws covered', figure: true, cell: (p) => formatCount(p.covered) },
        { head: 'Share', figure: true, cell: (p) => formatPercent(p.share) },
      ]}
      rows={points}
      rowKey={(p) => p.budget}
    />
  );
}
