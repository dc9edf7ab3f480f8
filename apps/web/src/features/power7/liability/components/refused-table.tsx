import { Link } from 'react-router';
import { NumberBalls } from '../../components/common';
import { RowsTable, type Column } from '../../components/rows-table';
import { Loaded, TitledSection } from '../../components/sections';
import { formatCount, formatMoney } from '../../lib/format';
import { useRefusedRowsQuery } from '../../api/liability-endpoints';
import { useLimitAnswer } from '../hooks/use-limit-answer';
import { breachLink, matchedIn, type RefusedRow } from '../lib/limit-text';
import type { LimitQuestion } from './limit-figures';

function refusedColumns(session: string, currency?: string): Column<RefusedRow>[] {
  return [
    { head: 'Line', figure: true, className: 'text-muted-foreground', cell: (row) => row.line },
    {
      head: 'Draw it would breach',
      cell: (row) => (
        <Link
          to={breachLink(session, row)}
          className="text-primary font-mono text-sm underline-offset-4 hover:underline"
          aria-label={`Winners of draw ${row.breachDraw.replaceAll('-', ', ')}`}
        >
          {row.breachDraw}
        </Link>
      ),
    },
    {
      head: 'That draw would pay',
      figure: true,
      className: 'font-medium',
      cell: (row) => formatMoney(row.wouldBe, currency),
    },
    { head: 'Customer id', cell: (row) => row.customerId || '—' },
    {
      head: 'Numbers',
      cell: (row) =>
        row.numbers.length ? (
          <NumberBalls
            numbers={row.numbers}
            highlight={matchedIn(row.numbers, row.breachDraw)}
            label={`${row.numbers.join(', ')}; in that draw ${matchedIn(row.numbers, row.breachDraw).join(', ')}`}
          />
        ) : (
          '—'
        ),
    },
  ];
}

/** The first refused tickets (read from the refused CSV), each linking to the draw it would breach. */
export function RefusedTable({ session, limit, currency }: LimitQuestion) {
  const refused = useLimitAnswer({ session, limit }).answer?.refused ?? 0;
  // asked once the run says there is something to list (the run's answer is then kept server-side)
  const rows = useRefusedRowsQuery({ session, limit }, { skip: refused === 0 });
  if (refused === 0) return null;
  return (
    <TitledSection title="Refused tickets" titleId="power7-refused-title" testId="power7-refused">
      <Loaded
        query={rows}
        current
        fail="The refused tickets could not be listed"
        loading={['h-32', 'Loading the refused tickets']}
      >
        {(page) => (
          <>
            <p className="text-muted-foreground text-sm">
              {page.more
                ? `The first ${formatCount(page.rows.length)} of ${formatCount(refused)}; the download holds every one.`
                : `All ${formatCount(page.rows.length)}, in the file’s order.`}
            </p>
            <RowsTable
              label="Refused tickets"
              columns={refusedColumns(session, currency)}
              rows={page.rows}
              rowKey={(row) => row.line}
              rowTestId="power7-refused-row"
            />
          </>
        )}
      </Loaded>
    </TitledSection>
  );
}
