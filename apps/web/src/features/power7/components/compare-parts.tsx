import type * as React from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { QUANTILE_KEYS } from '@pa/contracts/power7';
import { formatCount, formatMoney, formatPercent } from '../lib/format';
import { budgetText } from '../lib/scenarios';
import { TOOLTIP_PROPS } from './chart-figure';
import type { Compared } from './compare-view';

/** Line colours and dashes of the three runs (the dash tells them apart without colour). */
const SERIES = [
  { stroke: 'var(--primary)', dash: undefined },
  { stroke: '#0d9488', dash: '6 3' },
  { stroke: '#d97706', dash: '2 3' },
];

const runLabel = (x: Compared, i: number) =>
  `Run ${i + 1}: ${x.status.name ?? `budget ${budgetText(x.status.params)}`}`;

const money = (x: Compared, value: number) =>
  `${formatMoney(value)}${x.status.params.currency ? ` ${x.status.params.currency}` : ''}`;

/** One metric per row, one run per column. */
export function CompareTable({ compared }: { compared: Compared[] }) {
  const rows: [string, (x: Compared) => React.ReactNode][] = [
    ['Budget', (x) => `${budgetText(x.status.params)} ${x.status.params.currency ?? ''}`],
    [
      'Payouts 3 / 4 / 5 / 6 / 7',
      (x) => [3, 4, 5, 6, 7].map((m) => formatMoney(x.status.params.payouts[m as 3])).join(' / '),
    ],
    ['Pool', (x) => x.status.params.pool_size],
    [
      'Qualified draws',
      (x) =>
        x.status.counts.drawsQualified === undefined
          ? '—'
          : `${formatCount(x.status.counts.drawsQualified)} of ${formatCount(x.status.counts.draws ?? 0)}`,
    ],
    ...QUANTILE_KEYS.map((q): [string, (x: Compared) => React.ReactNode] => [
      `${q}th percentile of the total`,
      (x) => (x.insight ? money(x, x.insight.quantiles[q]) : '—'),
    ]),
    [
      'Chance a draw exceeds the budget',
      (x) =>
        x.insight?.budgets
          .map((b) => `${formatPercent(b.exceedProbability)} at ${formatMoney(b.budget)}`)
          .join('; ') ?? '—',
    ],
    [
      'Expected excess over the budget',
      (x) =>
        x.insight?.budgets
          .map((b) => `${money(x, b.expectedExcess)} at ${formatMoney(b.budget)}`)
          .join('; ') ?? '—',
    ],
    [
      'Worst draw',
      (x) =>
        x.insight ? `${x.insight.worst.combo}: ${money(x, x.insight.worst.totalPayout)}` : '—',
    ],
    [
      'Draws with a jackpot winner',
      (x) => (x.insight ? formatPercent(x.insight.jackpotShare) : '—'),
    ],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Side by side</CardTitle>
        <CardDescription>Exact over every possible draw, each equally likely.</CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <Table
          aria-label="Runs compared"
          scrollLabel="Runs compared, side by side"
          data-testid="power7-compare-table"
        >
          <TableHeader>
            <TableRow>
              <TableHead>Measure</TableHead>
              {compared.map((x, i) => (
                <TableHead key={x.status._id}>{runLabel(x, i)}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(([label, cell]) => (
              <TableRow key={label}>
                <TableHead scope="row" className="min-w-28 font-normal whitespace-normal">
                  {label}
                </TableHead>
                {compared.map((x) => (
                  <TableCell key={x.status._id} className="min-w-32 whitespace-normal tabular-nums">
                    {cell(x)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** The runs' budget curves on one chart: the share of draws a budget covers. */
export function CompareCurves({ compared }: { compared: Compared[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Budget curves</CardTitle>
        <CardDescription>
          Share of all draws whose total payout stays below a budget.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <figure
          className="h-72 w-full"
          data-testid="power7-compare-curves"
          aria-label="Budget curves of the runs"
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
              <XAxis
                dataKey="budget"
                type="number"
                domain={['dataMin', 'dataMax']}
                allowDuplicatedCategory={false}
                tickFormatter={(v: number) => formatMoney(v)}
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
              <Tooltip
                {...TOOLTIP_PROPS}
                labelFormatter={(v) => `Budget ${formatMoney(Number(v))}`}
                formatter={(value) => formatPercent(Number(value))}
              />
              <Legend />
              {compared.map((x, i) =>
                x.curve ? (
                  <Line
                    key={x.status._id}
                    data={x.curve}
                    dataKey="share"
                    name={runLabel(x, i)}
                    type="stepAfter"
                    dot={false}
                    stroke={SERIES[i]!.stroke}
                    strokeDasharray={SERIES[i]!.dash}
                    strokeWidth={2}
                    isAnimationActive={false}
                  />
                ) : null,
              )}
            </LineChart>
          </ResponsiveContainer>
        </figure>
      </CardContent>
    </Card>
  );
}
