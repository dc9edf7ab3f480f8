import { Line, LineChart, Tooltip } from 'recharts';
import type { InsightAnswer } from '@pa/contracts/power7';
import { TableCell, TableRow } from '@/components/ui/table';
import { ChartFigure, TOOLTIP_PROPS } from '../../components/chart-figure';
import {
  BUDGET_MARK,
  LegendItem,
  budgetLine,
  chanceAxis,
  chartGrid,
  logAmountAxis,
  markDot,
} from '../../components/chart-parts';
import { ChartBox } from '../../components/insight-charts';
import { RowsTable } from '../../components/rows-table';
import {
  countsOf,
  formatCount,
  formatMoney,
  formatMoneyShort,
  formatShareOf,
} from '../../lib/format';
import { logPosition, type BudgetBand } from '../../lib/insight';
import {
  chanceTickLabel,
  chanceTicks,
  exceedanceCurve,
  worstDrawPoint,
  type ExceedancePoint,
} from '../lib/exceedance';

/** About six amounts on the log axis, evenly spaced from the smallest to the largest total. */
function amountTicks(min: number, max: number, count = 6): number[] {
  const [lo, hi] = [logPosition(min), logPosition(max)];
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/** The exact chance that a draw pays more than `amount`, in words, from the budgets asked. */
function chanceAbove(answer: InsightAnswer, amount: number, money: (v: number) => string) {
  const at = answer.budgets.find((b) => Math.abs(b.budget - amount) < 0.005);
  // a quantile at the largest total has no draw above it: the worst draw's sentence says that
  return at && at.exceeding > 0
    ? `more than ${money(amount)}: ${formatShareOf(at.exceeding, answer.draws)}`
    : null;
}

/**
 * The exceedance curve: the chance that a draw pays more than an amount, both on log scales, down to
 * a single draw (1 in the number of draws), the worst draw marked and the session's budget drawn. A
 * linear axis shows a plateau near 100 % and hides the tail; this one gives every power of ten of
 * rarity the same height.
 */
export function ExceedanceChart({
  answer,
  band,
  currency,
  print = false,
}: {
  answer: InsightAnswer;
  band: BudgetBand;
  currency?: string;
  /** The printed report: the drawing only, no table toggle. */
  print?: boolean;
}) {
  const money = (v: number) => formatMoney(v, currency);
  const points = exceedanceCurve(answer);
  const worst = worstDrawPoint(answer);
  const quantileWords = (['99', '99.9', '99.99'] as const)
    .map((q) => chanceAbove(answer, answer.quantiles[q], money))
    .filter((text, i, all) => text !== null && all.indexOf(text) === i);
  if (answer.max === answer.min) {
    return (
      <p className="text-sm" data-testid="power7-exceedance">
        Every draw pays the same, {money(answer.max)}: no draw pays more than another.
      </p>
    );
  }
  return (
    <ChartFigure
      print={print}
      testId="power7-exceedance"
      title="Exceedance curve: chance a draw pays more than an amount"
      summary={
        <>
          Both axes on a log scale, down to a single draw in {formatCount(answer.draws)}.
          {quantileWords.length ? ` Chance a draw pays ${quantileWords.join('; ')}.` : ''}
          {worst
            ? ` The worst draw pays ${money(worst.amount)} (${countsOf(worst.exceeding, answer.draws)}).`
            : ''}
        </>
      }
      chart={
        // the drawing reads what the summary and the table read
        <ExceedanceDrawing {...{ answer, band, points, worst, currency, print }} />
      }
      table={
        <ExceedanceTable points={points} worst={worst} draws={answer.draws} currency={currency} />
      }
    />
  );
}

/** The drawing: the step curve on log axes, the budget's line, the worst draw's dot, a legend. */
function ExceedanceDrawing({
  answer,
  band,
  points,
  worst,
  currency,
  print,
}: {
  answer: InsightAnswer;
  band: BudgetBand;
  points: ExceedancePoint[];
  worst: ExceedancePoint | null;
  currency?: string;
  print: boolean;
}) {
  const money = (v: number) => formatMoney(v, currency);
  const ticks = chanceTicks(answer.draws);
  const data = points.map((p) => ({ ...p, x: logPosition(p.amount), y: Math.log10(p.chance) }));
  const unit = currency ? ` in ${currency}` : '';
  return (
    <div className="grid gap-2">
      <ChartBox print={print}>
        <LineChart
          data={data}
          margin={{ top: 16, right: 16, bottom: 16, left: 8 }}
          title="Exceedance curve"
        >
          {chartGrid(true)}
          {logAmountAxis({
            domain: [logPosition(answer.min), logPosition(answer.max)],
            ticks: amountTicks(answer.min, answer.max),
            money: (amount) => formatMoneyShort(amount, currency),
            title: `Total${unit} (log scale)`,
          })}
          {chanceAxis(ticks, chanceTickLabel)}
          {budgetLine(band.max)}
          <Tooltip
            {...TOOLTIP_PROPS}
            labelFormatter={(_, payload) => {
              const point = payload?.[0]?.payload as ExceedancePoint | undefined;
              return point ? `More than ${money(point.amount)}` : '';
            }}
            formatter={(_value, _name, item) => {
              const point = item.payload as ExceedancePoint;
              return [formatShareOf(point.exceeding, answer.draws), 'Draws'];
            }}
          />
          <Line
            type="stepAfter"
            dataKey="y"
            stroke="var(--primary)"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          {worst
            ? markDot(logPosition(worst.amount), Math.log10(worst.chance), 'var(--destructive)')
            : null}
        </LineChart>
      </ChartBox>
      <ul className="text-muted-foreground grid gap-1 text-xs">
        <LegendItem mark={BUDGET_MARK}>Your budget, {money(band.max)}</LegendItem>
        {worst ? (
          <LegendItem
            mark={
              <span
                aria-hidden="true"
                className="bg-destructive inline-block size-2.5 rounded-full"
              />
            }
          >
            Worst draw, {money(worst.amount)}
          </LegendItem>
        ) : null}
      </ul>
    </div>
  );
}

function ExceedanceTable({
  points,
  worst,
  draws,
  currency,
}: {
  points: ExceedancePoint[];
  worst: ExceedancePoint | null;
  draws: number;
  currency?: string;
}) {
  return (
    <RowsTable
      label="Exceedance curve"
      scrollLabel="Exceedance curve, as a table"
      columns={[
        { head: 'Amount', figure: true, cell: (p) => formatMoney(p.amount, currency) },
        { head: 'Draws paying more', figure: true, cell: (p) => formatShareOf(p.exceeding, draws) },
      ]}
      rows={points}
      rowKey={(p) => p.amount}
      after={
        worst ? (
          <TableRow>
            <TableCell className="text-right tabular-nums">
              Worst draw, {formatMoney(worst.amount, currency)}
            </TableCell>
            <TableCell className="text-right tabular-nums">
              None; {countsOf(worst.exceeding, draws)} pay this amount
            </TableCell>
          </TableRow>
        ) : null
      }
    />
  );
}
