import type { Table } from '@tanstack/react-table';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/data-table/data-table';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import type { ListViewControls } from '@/hooks/use-list-view';
import type { ListResult } from './list-types';

/** The table of a list with its loading, empty and error states, and the pagination under it. */
export function ListBody<T extends { _id: string }>({
  table,
  title,
  noun,
  result,
  controls,
  filtersActive,
  selectedCount,
}: {
  table: Table<T>;
  title: string;
  noun: [string, string];
  result: ListResult<T>;
  controls: ListViewControls;
  filtersActive: boolean;
  selectedCount: number;
}) {
  const { view } = controls;
  return (
    <>
      <DataTable
        table={table}
        label={title}
        // A new search, filter or page shows placeholders, not the old rows under the new query.
        isLoading={
          result.isLoading || controls.restoring || (result.isFetching && !result.currentData)
        }
        isFetching={result.isFetching}
        error={result.error}
        onRetry={() => void result.refetch()}
        skeletonRows={Math.min(view.pageSize, 10)}
        empty={
          filtersActive ? (
            <div className="grid justify-items-center gap-2">
              <p>No {noun[1]} match this search or these filters.</p>
              <Button variant="outline" size="sm" onClick={controls.resetFilters}>
                Reset filters
              </Button>
            </div>
          ) : (
            <p>There are no {noun[1]} yet.</p>
          )
        }
      />
      <DataTablePagination
        page={view.currentPage}
        pageSize={view.pageSize}
        total={result.data?.total}
        totalPages={result.data?.totalPages}
        noun={noun}
        selected={selectedCount}
        onPage={controls.setPage}
        onPageSize={controls.setPageSize}
      />
    </>
  );
}
