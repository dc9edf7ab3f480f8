import { useState } from 'react';
import { Link } from 'react-router';
import type { BookView } from '@pa/contracts/power7-books';
import { PageTitle } from '@/components/page-title';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useBooksQuery } from '../../api/book-endpoints';
import { httpStatusOf, LoadError, NoPermission, StepHeader } from '../../components/common';
import { RowsPager, RowsTable, type Column } from '../../components/rows-table';
import { EmptyList, SkeletonRows } from '../../components/sections';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { money } from '../../lib/money';
import { BOOKS_URL, BookStatusBadge } from './book-status';

const BOOKS_PAGE_SIZE = 10;

const BOOK_COLUMNS: Column<BookView>[] = [
  {
    head: 'Book',
    className: 'max-w-64 min-w-40 break-words whitespace-normal',
    cell: (book) => (
      <Link
        to={`${BOOKS_URL}/${encodeURIComponent(book._id)}`}
        className="text-primary font-medium underline-offset-4 hover:underline"
      >
        {book.name}
      </Link>
    ),
  },
  { head: 'Status', cell: (book) => <BookStatusBadge status={book.status} /> },
  { head: 'Limit per draw', figure: true, cell: (book) => money(book.limit, book.currency) },
  { head: 'Head-room', figure: true, cell: (book) => money(book.headroom, book.currency) },
  { head: 'Tickets', figure: true, cell: (book) => formatCount(book.tickets) },
  { head: 'Sold', figure: true, cell: (book) => formatCount(book.sold) },
  { head: 'Opened', cell: (book) => <RelativeTime iso={book.createdAt} /> },
];

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
              <SkeletonRows label="Loading the books" status />
            ) : data.total === 0 ? (
              <EmptyList
                testId="power7-no-books"
                title="No live books yet."
                action={
                  <Button asChild variant="outline">
                    <Link to="/app/power7">Go to your analyses</Link>
                  </Button>
                }
              >
                Open one from a finished analysis: in its Liability limit section, check a limit,
                then choose Open a live book.
              </EmptyList>
            ) : (
              <div className="grid gap-3">
                <RowsTable
                  label="Your live books"
                  columns={BOOK_COLUMNS}
                  rows={data.items}
                  rowKey={(book) => book._id}
                  rowTestId="power7-book-row"
                />
                <RowsPager answer={data} noun={['book', 'books']} onPage={setPage} />
              </div>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
