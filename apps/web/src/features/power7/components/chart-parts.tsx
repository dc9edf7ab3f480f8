import type * as React from 'react';
import { CartesianGrid, ReferenceDot, ReferenceLine, XAxis, YAxis } from 'recharts';
import { cn } from '@/lib/utils';
import { amountAt, logPosition } from '../lib/insight';

/*
 * The pieces Power 7's charts share: the grid, the log amount axis, the chance axis, the budget's
 * line, a marked dot and the legend beside a chart. They are functions returning recharts' own
 * elements (not components of ours), so recharts sees the axis or line it expects as a child.
 */

export const AXIS_PROPS = { className: 'text-xs', stroke: 'currentColor' } as const;
export const axisTitle = (value: string, axis: 'x' | 'y') =>
  axis === 'x'
    ? { value, position: 'insideBottom' as const, offset: -4, className: 'fill-muted-foreground' }
    : {
        value,
        angle: -90,
        position: 'insideLeft' as const,
        style: { textAnchor: 'middle' as const },
        className: 'fill-muted-foreground',
      };

/** The dashed grid behind a chart; `vertical` adds the lines of the x ticks. */
export const chartGrid = (vertical = false) => (
  <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={vertical} />
);

/** Amounts on a log scale (`x` of each point is logPosition of its amount), ticks as short money. */
export function logAmountAxis({
  domain,
  ticks,
  money,
  title,
  allowDuplicatedCategory,
}: {
  domain: [number, number] | ['dataMin', 'dataMax'];
  ticks: number[];
  /** The short form of an amount ("1.2M"). */
  money: (amount: number) => string;
  title: string;
  allowDuplicatedCategory?: boolean;
}) {
  return (
    <XAxis
      dataKey="x"
      type="number"
      domain={domain}
      ticks={ticks}
      tickFormatter={(x: number) => money(amountAt(x))}
      {...(allowDuplicatedCategory === undefined ? {} : { allowDuplicatedCategory })}
      label={axisTitle(title, 'x')}
      {...AXIS_PROPS}
    />
  );
}

/** The chance of paying more, as log10 of the chance (`y`), its ticks in words ("1 in 1,000"). */
export function chanceAxis(ticks: number[], label: (tick: number) => string) {
  return (
    <YAxis
      dataKey="y"
      type="number"
      domain={[ticks.at(-1) ?? -1, 0]}
      ticks={ticks}
      tickFormatter={label}
      width={96}
      label={axisTitle('Chance of paying more', 'y')}
      {...AXIS_PROPS}
    />
  );
}

/** The session's budget on the log amount axis: a dashed red line. */
export const budgetLine = (budget: number) => (
  <ReferenceLine
    x={logPosition(budget)}
    stroke="var(--destructive)"
    strokeDasharray="4 4"
    ifOverflow="hidden"
  />
);

/** A marked point (the worst draw, a run's budget on its curve). */
export const markDot = (x: number, y: number, fill: string, key?: React.Key) => (
  <ReferenceDot
    key={key}
    x={x}
    y={y}
    r={5}
    fill={fill}
    stroke="var(--background)"
    ifOverflow="extendDomain"
  />
);

/** The dashed line of the legend that stands for the budget's line. */
export const BUDGET_MARK = (
  <span
    aria-hidden="true"
    className="border-destructive inline-block w-6 border-t-2 border-dashed"
  />
);

/** One line of a legend beside a chart: its mark, then what it stands for. */
export function LegendItem({
  mark,
  className,
  children,
}: {
  mark: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <li className={cn('flex items-center gap-2', className)}>
      {mark}
      {children}
    </li>
  );
}
