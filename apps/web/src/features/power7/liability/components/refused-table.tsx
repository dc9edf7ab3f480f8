import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { LoadError, NumberBalls } from '../../components/common';
import { formatCount, formatMoney } from '../../lib/format';
import { useLimitRunQuery, useRefusedRowsQuery } from '../../api/liability-endpoints';
import { breachLink, matchedIn } from '../lib/limit-text';

/** The first refused tickets (read from the refused CSV), each linking to the draw it would breach. */
export function RefusedTable({
  session,
  limit,
  currency,
}: {
  session: string;
  limit: number;
  currency?: string;
}) {
  const run = useLimitRunQuery({ session, limit });
  const refused = run.currentData?.refused ?? 0;
  // asked once the run says there is something to list (the run's answer is then kept server-side)
  const rows = useRefusedRowsQuery({ session, limit }, { skip: refused === 0 });
  if (refused === 0) return null;
  const page = rows.currentData;
  return (
    <section
      className="grid gap-3"
      aria-labelledby="power7-refused-title"
      data-testid="power7-refused"
    >
      <h3 id="power7-refused-title" className="text-base font-semibold">
        Refused tickets
      </h3>
      {rows.error ? (
        <LoadError
          error={rows.error}
          onRetry={() => void rows.refetch()}
          title="The refused tickets could not be listed"
        />
      ) : !page ? (
        <Skeleton className="h-32" aria-label="Loading the refused tickets" />
      ) : (
        <>
          <p className="text-muted-foreground text-sm">
            {page.more
              ? `The first ${formatCount(page.rows.length)} of ${formatCount(refused)}; the download holds every one.`
              : `All ${formatCount(page.rows.length)}, in the file’s order.`}
          </p>
          <Table aria-label="Refused tickets" scrollLabel="Refused tickets">
            <TableHeader>
              <TableRow>
                <TableHead className="text-right">Line</TableHead>
                <TableHead>Draw it would breach</TableHead>
                <TableHead className="text-right">That draw would pay</TableHead>
                <TableHead>Customer id</TableHead>
                <TableHead>Numbers</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.rows.map((row) => (
                <TableRow key={row.line} data-testid="power7-refused-row">
                  <TableCell className="text-muted-foreground text-right tabular-nums">
                    {row.line}
                  </TableCell>
                  <TableCell>
                    <Link
                      to={breachLink(session, row)}
                      className="text-primary font-mono text-sm underline-offset-4 hover:underline"
                      aria-label={`Winners of draw ${row.breachDraw.replaceAll('-', ', ')}`}
                    >
                      {row.breachDraw}
                    </Link>
                  </TableCell>
                  <TableCell className="text-right font-medium tabular-nums">
                    {formatMoney(row.wouldBe, currency)}
                  </TableCell>
                  <TableCell>{row.customerId || '—'}</TableCell>
                  <TableCell>
                    {row.numbers.length ? (
                      <NumberBalls
                        numbers={row.numbers}
                        highlight={matchedIn(row.numbers, row.breachDraw)}
                        label={`${row.numbers.join(', ')}; in that draw ${matchedIn(row.numbers, row.breachDraw).join(', ')}`}
                      />
                    ) : (
                      '—'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </section>
  );
}
