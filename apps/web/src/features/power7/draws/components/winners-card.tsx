import { Columns3 } from 'lucide-react';
import { useState } from 'react';
import type { WinnersAnswer } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { POWER7_PERMISSIONS } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { LoadError, NoPermission, NumberBalls, httpStatusOf } from '../../components/common';
import { RowsPager, RowsTable, type Column } from '../../components/rows-table';

type Winner = WinnersAnswer['items'][number];

/** The winners' columns: the ticket's own, then the file's extra columns the user chose to show. */
function winnerColumns(money: (value: number) => string, shown: string[]): Column<Winner>[] {
  return [
    { head: 'Line', figure: true, className: 'text-muted-foreground', cell: (row) => row.line },
    { head: 'Customer id', cell: (row) => row.customerId ?? '—' },
    { head: 'Name', cell: (row) => row.name ?? '—' },
    { head: 'Phone', className: 'tabular-nums', cell: (row) => row.phone ?? '—' },
    {
      head: 'Numbers',
      cell: (row) => (
        <NumberBalls
          numbers={row.numbers}
          highlight={row.matched}
          label={`${row.numbers.join(', ')}; matched ${row.matched.join(', ')}`}
        />
      ),
    },
    { head: 'Prize', figure: true, className: 'font-medium', cell: (row) => money(row.payout) },
    ...shown.map((name): Column<Winner> => ({
      key: name,
      head: name,
      cell: (row) => row.columns[name] ?? '',
    })),
  ];
}

/** The file's extra columns (customer columns beyond the numbers), each shown on demand. */
function ColumnsMenu({
  columns,
  shown,
  onShown,
}: {
  columns: string[];
  shown: string[];
  onShown: (update: (shown: string[]) => string[]) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <Columns3 className="size-4" aria-hidden="true" /> Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Columns of the file</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {columns.map((name) => (
          <DropdownMenuCheckboxItem
            key={name}
            checked={shown.includes(name)}
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) =>
              onShown((s) => (checked ? [...s, name] : s.filter((c) => c !== name)))
            }
          >
            {name}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** One match type's winners of a draw, a page at a time, with its downloads as `actions`. */
export function WinnersCard({
  winners,
  match,
  money,
  onPage,
  actions,
}: {
  winners: { data?: WinnersAnswer; error?: unknown; refetch: () => unknown };
  match: number;
  /** Amounts in the session's currency. */
  money: (value: number) => string;
  onPage: (page: number) => void;
  actions: React.ReactNode;
}) {
  const [shown, setShown] = useState<string[]>([]);
  const data = winners.data;
  const extraColumns = Object.keys(data?.items[0]?.columns ?? {});
  let body: React.ReactNode;
  if (winners.error) {
    body =
      httpStatusOf(winners.error) === 403 ? (
        <NoPermission permission={POWER7_PERMISSIONS.download} what="see or download winners" />
      ) : (
        <LoadError
          error={winners.error}
          onRetry={() => void winners.refetch()}
          title="The winners could not be listed"
        />
      );
  } else if (!data) {
    body = <Skeleton className="h-48" aria-label="Loading winners" />;
  } else if (data.items.length === 0) {
    body = (
      <p className="text-muted-foreground py-6 text-center text-sm" data-testid="power7-no-winners">
        No ticket has {match} matches in this draw.
      </p>
    );
  } else {
    body = (
      <>
        <RowsTable
          label={`Winners with ${match} matches`}
          columns={winnerColumns(money, shown)}
          rows={data.items}
          rowKey={(row) => row.line}
          rowTestId="power7-winner-row"
        />
        <RowsPager answer={data} noun={['winner', 'winners']} onPage={onPage} />
      </>
    );
  }
  return (
    <Card data-testid="power7-winners">
      <CardHeader className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Winners with {match} matches</CardTitle>
          <CardDescription>
            {data ? `${formatCount(data.total)} winning tickets.` : 'Loading…'}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {actions}
          {extraColumns.length ? (
            <ColumnsMenu columns={extraColumns} shown={shown} onShown={setShown} />
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">{body}</CardContent>
    </Card>
  );
}
