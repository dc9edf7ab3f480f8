import { BookX } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useBreadcrumbLabel } from '@/lib/breadcrumb-labels';
import { formatDateTime } from '@/lib/format';
import { useBookQuery } from '../../api/book-endpoints';
import { httpStatusOf, LoadError, NoPermission, StepHeader } from '../../components/common';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { money } from '../../lib/money';
import { BookActions } from './book-actions';
import { BookGauge } from './book-gauge';
import { BookSales } from './book-sales';
import { BOOKS_URL, BookStatusBadge } from './book-status';
import { BookTerminal } from './book-terminal';

/** A book that is not there (or is another account's: the service answers both with 404). */
function BookNotFound() {
  return (
    <Card role="alert" data-testid="power7-book-not-found">
      <CardHeader>
        <BookX className="text-destructive size-6" aria-hidden="true" />
        <CardTitle>This live book was not found</CardTitle>
        <CardDescription>
          The link may be wrong, or the book belongs to another account. Your books are listed on
          the Live books page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link to={BOOKS_URL}>Go to your live books</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * A live book as a sales terminal (issue #41 part 5): its head-room as a gauge, the ticket box with
 * Check and Sell while it is open, its last sales, closing it and a session of its tickets.
 */
export function BookPage({ id }: { id: string }) {
  const { canRun } = usePower7Access();
  const book = useBookQuery(id, { skip: !canRun, refetchOnMountOrArgChange: true });
  const data = book.data;
  useBreadcrumbLabel(id, data?.name);

  const status = httpStatusOf(book.error);
  if (!canRun || status === 403) {
    return <NoPermission permission={POWER7_PERMISSIONS.run} what="use live books" />;
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title={data ? `${data.name} · Live book` : 'Live book'} />
      {status === 404 ? (
        <BookNotFound />
      ) : book.error && !data ? (
        <LoadError
          error={book.error}
          onRetry={() => void book.refetch()}
          title="The book could not be opened"
        />
      ) : !data ? (
        <div className="grid gap-4" role="status" aria-busy="true" aria-label="Loading the book">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-32" />
          <Skeleton className="h-64" />
        </div>
      ) : (
        <>
          <StepHeader
            title={data.name}
            description={
              <>
                <BookStatusBadge status={data.status} />{' '}
                {`A live book of ${money(data.limit, data.currency)} per draw, opened ${formatDateTime(data.createdAt)}${data.closedAt ? `, closed ${formatDateTime(data.closedAt)}` : ''}.`}
              </>
            }
            actions={<BookActions book={data} />}
          />
          <Card>
            <CardHeader>
              <CardTitle>Head-room</CardTitle>
              <CardDescription>
                A ticket is refused when, won, it would take some draw past the limit (equal is
                allowed).
              </CardDescription>
            </CardHeader>
            <CardContent>
              <BookGauge book={data} />
            </CardContent>
          </Card>
          <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
            <Card>
              <CardContent>
                {data.status === 'open' ? (
                  <BookTerminal book={data} onClosed={() => void book.refetch()} />
                ) : (
                  <div className="grid gap-2" data-testid="power7-book-closed">
                    <h2 className="text-lg font-semibold">This book is closed</h2>
                    <p className="text-muted-foreground text-sm">
                      No ticket can be sold into it any more. Its figures and sales stay, and you
                      can still make a session of its tickets.
                    </p>
                  </div>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardContent>
                <BookSales book={data} />
              </CardContent>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
