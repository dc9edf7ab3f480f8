import type { BookView, BookSale } from '@pa/contracts/power7-books';
import { useState } from 'react';
import { RelativeTime } from '@/components/relative-time';
import { useBookSalesQuery } from '../../api/book-endpoints';
import { NumberBalls } from '../../components/common';
import { RowsPager, RowsTable, type Column } from '../../components/rows-table';
import { Loaded, TitledSection } from '../../components/sections';

const SALES_PAGE_SIZE = 10;

const SALE_COLUMNS: Column<BookSale>[] = [
  { head: 'Sale', figure: true, className: 'text-muted-foreground', cell: (sale) => sale.seq },
  { head: 'Numbers', cell: (sale) => <NumberBalls numbers={sale.numbers} /> },
  {
    head: 'Customer',
    className: 'max-w-48 break-words whitespace-normal',
    cell: (sale) => [sale.customerId, sale.name].filter(Boolean).join(' · ') || '—',
  },
  { head: 'Sold', cell: (sale) => <RelativeTime iso={sale.soldAt} /> },
];

/** The book's sales, newest first, a page at a time; asked again whenever the book sells more. */
export function BookSales({ book }: { book: BookView }) {
  const [page, setPage] = useState(1);
  const sales = useBookSalesQuery({
    id: book._id,
    page,
    pageSize: SALES_PAGE_SIZE,
    asOf: book.sold,
  });
  return (
    <TitledSection
      title="Last sales"
      titleId="power7-book-sales-title"
      level={2}
      titleClassName="text-lg font-semibold"
      testId="power7-book-sales"
    >
      {/* the previous page (or the log before the last sale) stays on screen while the next is read */}
      <Loaded
        query={sales}
        fail="The sales could not be listed"
        loading={['h-32', 'Loading the sales']}
      >
        {(data) =>
          data.total === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="power7-book-no-sales">
              {book.status === 'open'
                ? 'No ticket sold into this book yet. Sold tickets show here, newest first.'
                : 'No ticket was sold into this book before it closed.'}
            </p>
          ) : (
            <>
              <RowsTable
                label="Sales, newest first"
                scrollLabel="Sales"
                columns={SALE_COLUMNS}
                rows={data.items}
                rowKey={(sale) => sale.seq}
                rowTestId="power7-book-sale"
                busy={sales.isFetching}
              />
              <RowsPager answer={data} noun={['sale', 'sales']} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </TitledSection>
  );
}
