import { useState } from 'react';
import { Link } from 'react-router';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { PageTitle } from '@/components/page-title';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useBooksQuery } from '../../api/book-endpoints';
import { httpStatusOf, LoadError, NoPermission, StepHeader } from '../../components/common';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { money } from '../../lib/money';
import { BOOKS_URL, BookStatusBadge } from './book-status';

const BOOKS_PAGE_SIZE = 10;

/** The caller's live books, newest first, each opening its terminal. */
export function BooksList() {
  const { canRun } = usePower7Access();
  const [page, setPage] = useState(1);
  const books = useBooksQuery(
    { page, pageSize: BOOKS_PAGE_SIZE },
    { skip: !canRun, refetchOnMountOrArgChange: true },
  );
  if (!canRun || httpStatusOf(books.error) === 403) {
    return <NoPermission permission={POWER7_PERMISSIONS.run} what="use live books" />;
  }
  const data = books.data;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Live books" />
      <StepHeader
        title="Live books"
        description="A live book holds a session’s tickets accepted under a liability limit; a sales terminal sells new tickets into it, each checked against every draw, and refuses any that would take a draw past the limit."
      />
      {books.error ? (
        <LoadError error={books.error} onRetry={() => void books.refetch()} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Your books</CardTitle>
            <CardDescription>Newest first.</CardDescription>
          </CardHeader>
          <CardContent>
            {!data ? (
              <div
                className="grid gap-2"
                role="status"
                aria-label="Loading the books"
                aria-busy="true"
              >
                <Skeleton className="h-8" />
                <Skeleton className="h-8" />
                <Skeleton className="h-8" />
              </div>
            ) : data.total === 0 ? (
              <div className="grid justify-items-start gap-3 py-4" data-testid="power7-no-books">
                <p className="font-medium">No live books yet.</p>
                <p className="text-muted-foreground text-sm">
                  Open one from a finished analysis: in its Liability limit section, check a limit,
                  then choose Open a live book.
                </p>
                <Button asChild variant="outline">
                  <Link to="/app/power7">Go to your analyses</Link>
                </Button>
              </div>
            ) : (
              <div className="grid gap-3">
                <Table aria-label="Your live books" scrollLabel="Your live books">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Book</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead className="text-right">Limit per draw</TableHead>
                      <TableHead className="text-right">Head-room</TableHead>
                      <TableHead className="text-right">Tickets</TableHead>
                      <TableHead className="text-right">Sold</TableHead>
                      <TableHead>Opened</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.items.map((book) => (
                      <TableRow key={book._id} data-testid="power7-book-row">
                        <TableCell className="max-w-64 min-w-40 break-words whitespace-normal">
                          <Link
                            to={`${BOOKS_URL}/${encodeURIComponent(book._id)}`}
                            className="text-primary font-medium underline-offset-4 hover:underline"
                          >
                            {book.name}
                          </Link>
                        </TableCell>
                        <TableCell>
                          <BookStatusBadge status={book.status} />
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {money(book.limit, book.currency)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {money(book.headroom, book.currency)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {formatCount(book.tickets)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {formatCount(book.sold)}
                        </TableCell>
                        <TableCell>
                          <RelativeTime iso={book.createdAt} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                <DataTablePagination
                  page={data.page}
                  pageSize={data.pageSize}
                  total={data.total}
                  totalPages={data.totalPages}
                  noun={['book', 'books']}
                  selected={0}
                  onPage={setPage}
                />
              </div>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
