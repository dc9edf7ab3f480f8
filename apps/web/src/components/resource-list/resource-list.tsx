import type { ColumnDef, VisibilityState } from '@tanstack/react-table';
import { Download, Eye, Pencil, Plus, RotateCcw, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type * as React from 'react';
import { toast } from 'sonner';
import { formatSort, type Paginated } from '@pa/contracts/list-query';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { errorMessage } from '@/lib/api/api-error';
import { useListView, type ListViewControls } from '@/hooks/use-list-view';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { writeCsvPages, type CsvColumn } from '@/lib/csv';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import type { PermissionCode } from '@/lib/permission-gate';
import type { ListViewSlice } from '@/lib/list-view-slices';
import { BulkDeleteDialog } from './bulk-delete-dialog';
import { SelectionBanner } from './selection-banner';
import { DataTable } from '@/components/data-table/data-table';
import {
  DataTableFacetFilter,
  type FacetOption,
  type FacetSearch,
} from '@/components/data-table/data-table-facet-filter';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { DataTableViewOptions } from '@/components/data-table/data-table-view-options';
import { SearchInput } from '@/components/data-table/search-input';
import { useServerTable } from '@/components/data-table/use-server-table';
import { ForbiddenState } from '@/components/forbidden-state';
import { GatedButton } from '@/components/permission-gate';
import { PageHeader } from '@/components/page-header';
import { DANGER_BUTTON } from '@/lib/danger-button';

export interface Facet {
  key: string;
  title: string;
  options: readonly FacetOption[];
  /** One value at a time (the API takes one for this filter); otherwise several. */
  single?: boolean;
  search?: FacetSearch;
  labelOf?: (value: string) => string;
}

export interface ListResult<T> {
  data?: Paginated<T>;
  /** The answer for the current arguments only (undefined while a new search or page loads). */
  currentData?: Paginated<T>;
  error?: unknown;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ResourceListProps<T extends { _id: string }> {
  title: string;
  description: string;
  /** Singular and plural nouns ("user", "users"). */
  noun: [string, string];
  basePath: string;
  slice: ListViewSlice;
  urlConfig: ListUrlConfig;
  useList: (args: ListQueryArgs, options: { skip: boolean }) => ListResult<T>;
  /** One page of the current view, for the CSV export. */
  fetchPage: (args: ListQueryArgs) => Promise<Paginated<T>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column value types vary per column
  columns: ColumnDef<T, any>[];
  facets: Facet[];
  csvColumns: CsvColumn<T>[];
  permissions: {
    read: PermissionCode;
    create?: PermissionCode;
    update?: PermissionCode;
    delete?: PermissionCode;
  };
  rowName: (row: T) => string;
  /** Why a row cannot be deleted, when the screen already knows (the server decides anyway). */
  protectedReason?: (row: T) => string | null;
  deleteOne?: (id: string) => Promise<unknown>;
  fullReset?: boolean;
  initialHidden?: VisibilityState;
  headerActions?: React.ReactNode;
  searchLabel: string;
  /** Filters beyond the facets (the audit trail's date range). */
  toolbarExtra?: (controls: ListViewControls) => React.ReactNode;
  /** Replaces the view/edit/delete buttons of each row. */
  renderRowActions?: (row: T) => React.ReactNode;
  /** Changes for the selection (ids of the selected rows, or of every matching one). */
  bulkActions?: (selection: BulkSelection) => React.ReactNode;
  /** Every id the current search and filters match, for "select all N matching". */
  fetchMatchingIds?: (
    query: ListQueryArgs,
  ) => Promise<{ ids: string[]; total: number; truncated: boolean }>;
  /** Brings deleted rows back: the bulk delete's toast then offers "Undo". */
  restoreMany?: (ids: string[]) => Promise<unknown>;
  /** Names a row not on the page (a refused one of a delete of every matching row). */
  nameById?: (id: string) => Promise<string>;
}

export interface BulkSelection {
  ids: string[];
  /** A selected row's name (its id when the row is on another page). */
  nameOf: (id: string) => string;
  /** Clears the selection (after a change). */
  clear: () => void;
}

export function ResourceList<T extends { _id: string }>(props: ResourceListProps<T>) {
  const missingRead = useMissingPermissions(props.permissions.read);
  if (missingRead.length)
    return <ForbiddenState need={missingRead} what={`the ${props.noun[1]} list`} />;
  return <ResourceListScreen {...props} />;
}

function ResourceListScreen<T extends { _id: string }>({
  title,
  description,
  noun,
  basePath,
  slice,
  urlConfig,
  useList,
  fetchPage,
  columns,
  facets,
  csvColumns,
  permissions,
  rowName,
  protectedReason,
  deleteOne,
  fullReset,
  initialHidden,
  headerActions,
  searchLabel,
  toolbarExtra,
  renderRowActions,
  bulkActions,
  fetchMatchingIds,
  restoreMany,
  nameById,
}: ResourceListProps<T>) {
  const controls = useListView(slice, urlConfig);
  const { view } = controls;
  const result = useList(controls.query, { skip: controls.restoring });
  // Row checkboxes only for those who may act on a selection.
  const missingDelete = useMissingPermissions(permissions.delete ?? []);
  const canDelete = !!permissions.delete && !!deleteOne && missingDelete.length === 0;
  // A page past the end (after deleting the last rows, or `?page=999`) moves to the last real one.
  const lastPage = result.currentData ? Math.max(result.currentData.totalPages, 1) : null;
  const { clampPage } = controls;
  useEffect(() => {
    if (lastPage !== null && view.currentPage > lastPage) clampPage(lastPage);
  }, [lastPage, view.currentPage, clampPage]);
  const forbidden = (result.error as { status?: unknown } | undefined)?.status === 403;
  const [bulkOpen, setBulkOpen] = useState(false);
  const [exporting, setExporting] = useState<string | null>(null);
  const queryKey = JSON.stringify([controls.query.search, controls.query.filters]);
  const [matching, setMatching] = useState<{
    key: string;
    ids: string[];
    truncated: boolean;
  } | null>(null);
  const [selectingMatching, setSelectingMatching] = useState(false);

  const allColumns: ColumnDef<T>[] = [
    {
      id: 'select',
      header: ({ table }) => (
        <Checkbox
          checked={
            table.getIsAllPageRowsSelected() ||
            (table.getIsSomePageRowsSelected() ? 'indeterminate' : false)
          }
          onCheckedChange={(value) => table.toggleAllPageRowsSelected(!!value)}
          aria-label="Select all on this page"
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          checked={row.getIsSelected()}
          onCheckedChange={(value) => row.toggleSelected(!!value)}
          aria-label={`Select ${rowName(row.original)}`}
        />
      ),
      enableSorting: false,
      enableHiding: false,
      meta: { className: 'w-8' },
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => {
        if (renderRowActions) return renderRowActions(row.original);
        const name = rowName(row.original);
        const id = row.original._id;
        return (
          <div className="flex gap-1">
            <GatedButton
              need={permissions.read}
              to={`${basePath}/${id}/read`}
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`View ${name}`}
            >
              <Eye aria-hidden="true" />
            </GatedButton>
            {permissions.update ? (
              <GatedButton
                need={permissions.update}
                to={`${basePath}/${id}/update`}
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label={`Edit ${name}`}
              >
                <Pencil aria-hidden="true" />
              </GatedButton>
            ) : null}
            {permissions.delete ? (
              <GatedButton
                need={permissions.delete}
                to={`${basePath}/${id}/delete`}
                variant="ghost"
                size="icon"
                className="size-8 text-destructive hover:text-destructive"
                aria-label={`Delete ${name}`}
                blockedReason={protectedReason?.(row.original) ?? null}
              >
                <Trash2 aria-hidden="true" />
              </GatedButton>
            ) : null}
          </div>
        );
      },
      enableSorting: false,
      enableHiding: false,
      // Right after the checkbox and frozen there: in view when long content makes the table
      // scroll sideways, yet never over another column at rest (a frozen column at the right end
      // sat on Roles at 1280 px and on everything at 360 px).
      meta: {
        className:
          'sticky left-0 z-[1] w-28 bg-background [tr:hover>&]:bg-[color-mix(in_oklab,var(--muted)_50%,var(--background))] [tr[data-state=selected]>&]:bg-muted',
      },
    },
    ...columns,
  ];
  const { table, resetColumns } = useServerTable({
    columns: canDelete || bulkActions ? allColumns : allColumns.filter((c) => c.id !== 'select'),
    answer: result.data,
    controls,
    initialHidden,
    storageKey: slice.name,
    selectable: canDelete || !!bulkActions,
  });
  const selectedRows = table.getSelectedRowModel().rows.map((r) => r.original);
  const pageRows = table.getRowModel().rows.length;
  const allMatching =
    matching?.key === queryKey && table.getIsAllPageRowsSelected() ? matching : null;
  // Delete and the bulk changes act on the same selection: the page's rows or every matching one.
  const selectedIds = allMatching ? allMatching.ids : selectedRows.map((row) => row._id);
  const rowOf = (id: string) =>
    table.getRowModel().rows.find((r) => r.original._id === id)?.original;
  const clearSelection = () => {
    table.resetRowSelection();
    setMatching(null);
  };
  const selectMatching = async () => {
    if (!fetchMatchingIds) return;
    setSelectingMatching(true);
    try {
      const answer = await fetchMatchingIds(controls.query);
      setMatching({ key: queryKey, ids: answer.ids, truncated: answer.truncated });
    } catch (error) {
      toast.error(`Could not select every matching ${noun[0]}: ${errorMessage(error)}`);
    } finally {
      setSelectingMatching(false);
    }
  };

  if (forbidden) return <ForbiddenState need={[permissions.read]} what={`the ${noun[1]} list`} />;

  // Anything "Reset filters" would change: filters, search, or a sort other than the default.
  const filtersActive =
    Object.keys(view.filters).length > 0 ||
    view.searchCriteria !== '' ||
    formatSort(view.sort) !== formatSort(urlConfig.defaultSort);

  const exportCsv = async () => {
    setExporting('Starting…');
    const parts: string[] = [];
    try {
      const rows = await writeCsvPages(
        csvColumns,
        (page) => fetchPage({ ...controls.query, page, pageSize: 100 }),
        parts,
        (page, pages) => setExporting(`Page ${page} of ${Math.max(pages, 1)}`),
      );
      const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${noun[1]}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${rows} ${rows === 1 ? noun[0] : noun[1]} to CSV.`);
    } catch (error) {
      toast.error(`The export failed: ${errorMessage(error)}`);
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            {headerActions}
            {permissions.create ? (
              <GatedButton need={permissions.create} to={`${basePath}/create`}>
                <Plus aria-hidden="true" /> Create {noun[0]}
              </GatedButton>
            ) : null}
          </>
        }
      />
      <div className="flex flex-wrap items-center gap-2">
        <div className="contents">
          <SearchInput
            value={view.searchCriteria}
            onChange={controls.setSearch}
            label={searchLabel}
          />
          {facets.map((facet) => (
            <DataTableFacetFilter
              key={facet.key}
              title={facet.title}
              options={facet.options}
              single={facet.single}
              search={facet.search}
              labelOf={facet.labelOf}
              value={view.filters[facet.key]}
              onChange={(value) => controls.setFilter(facet.key, value)}
            />
          ))}
          {toolbarExtra?.(controls)}
          {filtersActive ? (
            <Button variant="ghost" size="sm" className="h-8" onClick={controls.resetFilters}>
              <X aria-hidden="true" /> Reset filters
            </Button>
          ) : null}
          {fullReset ? (
            <Button
              variant="ghost"
              size="sm"
              className="h-8"
              onClick={() => {
                controls.resetAll();
                resetColumns();
              }}
            >
              <RotateCcw aria-hidden="true" /> Reset view
            </Button>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2 xl:ml-auto">
          {canDelete && permissions.delete ? (
            <GatedButton
              need={permissions.delete}
              size="sm"
              className={`h-8 ${DANGER_BUTTON}`}
              blockedReason={selectedIds.length === 0 ? `Select ${noun[1]} to delete first.` : null}
              onClick={() => setBulkOpen(true)}
            >
              <Trash2 aria-hidden="true" /> Delete selected
              {selectedIds.length ? ` (${selectedIds.length})` : ''}
            </GatedButton>
          ) : null}
          {bulkActions?.({
            ids: selectedIds,
            nameOf: (id) => {
              const row = rowOf(id);
              return row ? rowName(row) : id;
            },
            clear: clearSelection,
          })}
          <Button
            variant="outline"
            size="sm"
            className="h-8"
            onClick={exportCsv}
            disabled={exporting !== null}
          >
            <Download aria-hidden="true" /> {exporting ? `Exporting… ${exporting}` : 'Export CSV'}
          </Button>
          <DataTableViewOptions table={table} />
        </div>
      </div>
      {fetchMatchingIds && pageRows > 0 && table.getIsAllPageRowsSelected() ? (
        <SelectionBanner
          pageCount={pageRows}
          total={result.data?.total ?? pageRows}
          matching={
            allMatching ? { count: allMatching.ids.length, truncated: allMatching.truncated } : null
          }
          loading={selectingMatching}
          noun={noun}
          onSelectMatching={() => void selectMatching()}
          onClear={clearSelection}
        />
      ) : null}
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
        selected={selectedIds.length}
        onPage={controls.setPage}
        onPageSize={controls.setPageSize}
      />
      {deleteOne ? (
        <BulkDeleteDialog
          open={bulkOpen}
          onOpenChange={setBulkOpen}
          ids={selectedIds}
          rowOf={rowOf}
          noun={noun}
          rowName={rowName}
          nameById={nameById}
          protectedReason={protectedReason}
          deleteOne={deleteOne}
          restoreMany={restoreMany}
          onDone={clearSelection}
        />
      ) : null}
    </div>
  );
}
