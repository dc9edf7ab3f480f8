import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
  type Updater,
  type VisibilityState,
} from '@tanstack/react-table';
import { useState } from 'react';
import type { Paginated } from '@pa/contracts/list-query';
import type { ListViewControls } from '@/hooks/use-list-view';
import { storeColumns, storedColumns } from '@/lib/list-prefs';

const resolve = <T>(updater: Updater<T>, old: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;

/**
 * A TanStack table whose paging, sorting and filtering happen on the server: its state is the
 * list's view (URL + slice); clicks on headers become new views (shift-click adds a sort level).
 */
export function useServerTable<T extends { _id: string }>({
  columns,
  answer,
  controls,
  initialHidden = {},
  storageKey,
  selectable = true,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column value types vary per column
  columns: ColumnDef<T, any>[];
  answer: Paginated<T> | undefined;
  controls: ListViewControls;
  initialHidden?: VisibilityState;
  /** Where the shown/hidden columns are kept between visits (localStorage); none: not kept. */
  storageKey?: string;
  selectable?: boolean;
}) {
  const [columnVisibility, setVisibility] = useState<VisibilityState>(
    () => (storageKey ? storedColumns(storageKey) : null) ?? initialHidden,
  );
  const setColumnVisibility = (updater: Updater<VisibilityState>) => {
    const next = resolve(updater, columnVisibility);
    if (storageKey) storeColumns(storageKey, next);
    setVisibility(next);
  };
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  // Selection belongs to the page on screen; a new page or query starts with none.
  const pageKey = JSON.stringify(controls.query);
  const [selectionKey, setSelectionKey] = useState(pageKey);
  if (selectionKey !== pageKey) {
    setSelectionKey(pageKey);
    setRowSelection({});
  }
  const sorting: SortingState = controls.view.sort.map((s) => ({
    id: s.field,
    desc: s.order === 'desc',
  }));

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns a mutable instance by design
  const table = useReactTable({
    data: answer?.items ?? [],
    columns,
    getRowId: (row) => row._id,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: true,
    sortDescFirst: false,
    pageCount: answer?.totalPages ?? -1,
    rowCount: answer?.total,
    state: {
      sorting,
      columnVisibility,
      rowSelection,
      pagination: { pageIndex: controls.view.currentPage - 1, pageSize: controls.view.pageSize },
    },
    onSortingChange: (updater) =>
      controls.setSort(
        resolve(updater, sorting).map((s) => ({ field: s.id, order: s.desc ? 'desc' : 'asc' })),
      ),
    onColumnVisibilityChange: setColumnVisibility,
    onRowSelectionChange: setRowSelection,
    enableRowSelection: selectable,
  });
  const resetColumns = () => {
    if (storageKey) storeColumns(storageKey, null);
    setVisibility(initialHidden);
  };
  return { table, resetColumns };
}
