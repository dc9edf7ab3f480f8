import { flexRender, type Table as TanstackTable } from '@tanstack/react-table';
import { RotateCw } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { errorMessage } from '@/lib/api/api-error';

/**
 * The table body of a server-side list with its three states besides data: skeleton rows while the
 * first answer is on its way, an empty state, and an error with a retry. The table scrolls
 * sideways on narrow screens.
 */
export function DataTable<T>({
  table,
  label,
  isLoading,
  isFetching,
  error,
  onRetry,
  empty,
  skeletonRows,
}: {
  table: TanstackTable<T>;
  label: string;
  isLoading: boolean;
  isFetching: boolean;
  error: unknown;
  onRetry: () => void;
  empty: React.ReactNode;
  skeletonRows: number;
}) {
  const columns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  const showError = !!error && !isFetching;
  return (
    <div className="relative rounded-md border" aria-busy={isFetching || undefined}>
      {isFetching ? (
        // Seen as a bar over the header and heard as "Loading users…" on every reload.
        <div
          role="status"
          className="absolute inset-x-0 top-0 z-10 h-1 animate-pulse rounded-t-md bg-primary"
          data-testid="list-loading"
        >
          <span className="sr-only">Loading {label.toLowerCase()}…</span>
        </div>
      ) : null}
      {/* Not dimmed while it reloads: faded rows fail colour contrast (the status badges did). */}
      <Table aria-label={label}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <TableHead
                    key={header.id}
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                    }
                    className={header.column.columnDef.meta?.className}
                  >
                    {header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext())}
                  </TableHead>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {showError ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="h-32 text-center whitespace-normal">
                <div role="alert" className="grid justify-items-center gap-3">
                  <p className="text-destructive">
                    Could not load {label.toLowerCase()}: {errorMessage(error)}
                  </p>
                  <Button variant="outline" size="sm" onClick={onRetry}>
                    <RotateCw aria-hidden="true" /> Retry
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ) : isLoading ? (
            Array.from({ length: skeletonRows }, (_, i) => (
              <TableRow key={`skeleton-${i}`} data-testid="skeleton-row">
                {columns.map((column) => (
                  <TableCell key={column.id}>
                    <Skeleton className="h-5 w-full min-w-8" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="h-32 text-center whitespace-normal">
                {empty}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow key={row.id} data-state={row.getIsSelected() ? 'selected' : undefined}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </div>
  );
}
