import type * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatShareOf } from '../../lib/format';
import { budgetBandOf, coverageOf, QUANTILE_LABELS } from '../../lib/insight';
import { budgetMoney, currencyOf, moneyOf, payoutsMoney } from '../../lib/money';
import type { Compared } from './compare-view';

type Row = [string, (x: Compared, money: (v: number) => string) => React.ReactNode];

const draws = (x: Compared) => x.insight?.draws ?? 0;

/** What the run's budget covers: its coverage as the results screen computes it (null until answered). */
const coverage = (x: Compared) =>
  x.insight ? coverageOf(x.insight, budgetBandOf(x.status.params)) : null;

const ROWS: Row[] = [
  ['Budget', (x) => budgetMoney(x.status.params)],
  ['Payouts for 3 / 4 / 5 / 6 / 7 matches', (x) => payoutsMoney(x.status.params)],
  ['Currency', (x) => currencyOf(x.status.params) ?? 'none named'],
  ['Pool', (x) => `numbers 1 to ${x.status.params.pool_size}`],
  [
    'Draws within the budget',
    (x) => {
      const c = coverage(x);
      return c ? formatShareOf(c.draws, draws(x)) : '—';
    },
  ],
  [
    'A range: draws below its minimum / above its maximum',
    (x) => {
      const c = coverage(x);
      if (x.status.params.budget_type === 'fixed') return 'not a range';
      return c?.below !== undefined && c.above !== undefined
        ? `${formatShareOf(c.below, draws(x))} below; ${formatShareOf(c.above, draws(x))} above`
        : '—';
    },
  ],
  ...QUANTILE_LABELS.map(({ key, label }): Row => [
    `Budget for ${label} of draws`,
    (x, money) => (x.insight ? money(x.insight.quantiles[key]) : '—'),
  ]),
  [
    'Chance a draw pays more than the budget',
    (x) => {
      const c = coverage(x);
      return c ? formatShareOf(c.exceeding, draws(x)) : '—';
    },
  ],
  [
    'Expected excess over the budget, over all draws',
    (x, money) => {
      const c = coverage(x);
      return c ? money(c.expectedExcess) : '—';
    },
  ],
  [
    'Mean overshoot when the budget is exceeded',
    (x, money) => {
      const c = coverage(x);
      if (!c) return '—';
      return c.meanOvershoot === null ? 'never exceeded' : money(c.meanOvershoot);
    },
  ],
  [
    'Worst draw',
    (x, money) =>
      x.insight ? `${x.insight.worst.combo}: ${money(x.insight.worst.totalPayout)}` : '—',
  ],
  [
    'Draws with a 7-match winner',
    (x) => (x.insight ? formatShareOf(x.insight.jackpotDraws, x.insight.draws) : '—'),
  ],
];

/** One measure per row, one run per column, amounts in each run's own currency. */
export function CompareTable({ compared }: { compared: Compared[] }) {
  const anyRange = compared.some((x) => x.status.params.budget_type === 'range');
  const rows = ROWS.filter(([label]) => anyRange || !label.startsWith('A range'));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Side by side</CardTitle>
        <CardDescription>Exact over every possible draw, each equally likely.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table
          aria-label="Runs compared"
          scrollLabel="Runs compared, side by side"
          data-testid="power7-compare-table"
        >
          <TableHeader>
            <TableRow>
              <TableHead className="align-bottom">Measure</TableHead>
              {compared.map((x) => (
                <TableHead key={x.status._id} className="min-w-40 align-bottom whitespace-normal">
                  {x.label}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(([label, cell]) => (
              <TableRow key={label}>
                <TableHead scope="row" className="min-w-36 font-normal whitespace-normal">
                  {label}
                </TableHead>
                {compared.map((x) => (
                  <TableCell key={x.status._id} className="min-w-40 whitespace-normal tabular-nums">
                    {cell(x, moneyOf(x.status.params))}
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
