import type * as React from 'react';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';

/** One column of a RowsTable: its heading and how a row fills its cell. */
export interface Column<Row> {
  head: React.ReactNode;
  /** A figure: heading and cell aligned right, digits of even width. */
  figure?: boolean;
  /** Extra classes of the heading and of each cell. */
  headClassName?: string;
  className?: string;
  /** Needed where two columns share a heading (the compared runs' tails). */
  key?: React.Key;
  cell: (row: Row, index: number) => React.ReactNode;
}

/**
 * Power 7's tables of rows (sales, books, winners, refused tickets, the charts' tables): one named,
 * sideways-scrolling table whose columns are a list, so every table reads and is labelled alike.
 */
export function RowsTable<Row>({
  label,
  scrollLabel = label,
  columns,
  rows,
  rowKey,
  rowTestId,
  busy,
  className,
  testId,
  after,
}: {
  /** The table's accessible name. */
  label: string;
  /** The scroll region's name, when it differs from the table's. */
  scrollLabel?: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => React.Key;
  rowTestId?: string;
  /** Set while a newer page is read (the rows on screen are the previous ones). */
  busy?: boolean;
  className?: string;
  testId?: string;
  /** Rows after the listed ones (a closing line such as the worst draw). */
  after?: React.ReactNode;
}) {
  return (
    <Table aria-label={label} scrollLabel={scrollLabel} className={className} data-testid={testId}>
      <TableHeader>
        <TableRow>
          {columns.map((column, i) => (
            <TableHead
              key={column.key ?? i}
              className={cn(column.figure && 'text-right', column.headClassName) || undefined}
            >
              {column.head}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody aria-busy={busy}>
        {rows.map((row, index) => (
          <TableRow key={rowKey(row)} data-testid={rowTestId}>
            {columns.map((column, i) => (
              <TableCell
                key={column.key ?? i}
                className={
                  cn(column.figure && 'text-right tabular-nums', column.className) || undefined
                }
              >
                {column.cell(row, index)}
              </TableCell>
            ))}
          </TableRow>
        ))}
        {after}
      </TableBody>
    </Table>
  );
}

/** A page of a paged answer and the service's paging figures. */
interface PagedAnswer {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/** The pager under a page of rows (nothing is selectable in Power 7's lists). */
export function RowsPager({
  answer,
  noun,
  onPage,
}: {
  answer: PagedAnswer;
  /** Singular and plural ("sale", "sales"). */
  noun: [string, string];
  onPage: (page: number) => void;
}) {
  return (
    <DataTablePagination
      page={answer.page}
      pageSize={answer.pageSize}
      total={answer.total}
      totalPages={answer.totalPages}
      noun={noun}
      selected={0}
      onPage={onPage}
    />
  );
}
