import type { BookView } from '@pa/contracts/power7-books';
import { useState } from 'react';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { RelativeTime } from '@/components/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useBookSalesQuery } from '../../api/book-endpoints';
import { LoadError, NumberBalls } from '../../components/common';

const SALES_PAGE_SIZE = 10;

/** The book's sales, newest first, a page at a time; asked again whenever the book sells more. */
export function BookSales({ book }: { book: BookView }) {
  const [page, setPage] = useState(1);
  const sales = useBookSalesQuery({
    id: book._id,
    page,
    pageSize: SALES_PAGE_SIZE,
    asOf: book.sold,
  });
  // the previous page (or the log before the last sale) stays on screen while the next is read
  const data = sales.data;
  return (
    <section
      className="grid gap-3"
      aria-labelledby="power7-book-sales-title"
      data-testid="power7-book-sales"
    >
      <h2 id="power7-book-sales-title" className="text-lg font-semibold">
        Last sales
      </h2>
      {sales.error ? (
        <LoadError
          error={sales.error}
          onRetry={() => void sales.refetch()}
          title="The sales could not be listed"
        />
      ) : !data ? (
        <Skeleton className="h-32" aria-label="Loading the sales" />
      ) : data.total === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="power7-book-no-sales">
          {book.status === 'open'
            ? 'No ticket sold into this book yet. Sold tickets show here, newest first.'
            : 'No ticket was sold into this book before it closed.'}
        </p>
      ) : (
        <>
          <Table aria-label="Sales, newest first" scrollLabel="Sales">
            <TableHeader>
              <TableRow>
                <TableHead className="text-right">Sale</TableHead>
                <TableHead>Numbers</TableHead>
                <TableHead>Customer</TableHead>
                <TableHead>Sold</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody aria-busy={sales.isFetching}>
              {data.items.map((sale) => (
                <TableRow key={sale.seq} data-testid="power7-book-sale">
                  <TableCell className="text-muted-foreground text-right tabular-nums">
                    {sale.seq}
                  </TableCell>
                  <TableCell>
                    <NumberBalls numbers={sale.numbers} />
                  </TableCell>
                  <TableCell className="max-w-48 break-words whitespace-normal">
                    {[sale.customerId, sale.name].filter(Boolean).join(' · ') || '—'}
                  </TableCell>
                  <TableCell>
                    <RelativeTime iso={sale.soldAt} />
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
            noun={['sale', 'sales']}
            selected={0}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}
