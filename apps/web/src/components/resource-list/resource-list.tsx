import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useListView, type ListViewControls } from '@/hooks/use-list-view';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useServerTable } from '@/components/data-table/use-server-table';
import { ForbiddenState } from '@/components/forbidden-state';
import { GatedButton } from '@/components/permission-gate';
import { PageHeader } from '@/components/page-header';
import { BulkDeleteDialog } from './bulk-delete-dialog';
import { ListBody } from './list-body';
import { listColumns } from './list-columns';
import { filtersActiveIn, ListFilters } from './list-filters';
import { ListSelectionActions } from './list-selection-actions';
import type { ResourceListProps } from './list-types';
import type { FieldValues } from 'react-hook-form';
import type { RecordDefinition, Versioned } from '@/components/record/record-definition';
import { SelectionBanner } from './selection-banner';
import { useCsvExport } from './use-csv-export';
import { useListActions } from './use-list-actions';
import { useMatchingSelection } from './use-matching-selection';

export type { BulkSelection, Facet } from './list-types';

/**
 * A server-side list screen: search, filters, sort, pages, selection (the page or every matching
 * row), delete and bulk changes of the selection, CSV export (docs/reference/admin-screens.md).
 */
export function ResourceList<T extends { _id: string }>(props: ResourceListProps<T>) {
  const missingRead = useMissingPermissions(props.permissions.read);
  if (missingRead.length)
    return <ForbiddenState need={missingRead} what={`the ${props.noun[1]} list`} />;
  return <ResourceListScreen {...props} />;
}

/** What a record type's definition gives its list: nouns, path, permissions, delete and restore. */
type RecordListSource<T extends Versioned> = Pick<
  RecordDefinition<T, FieldValues, unknown>,
  'noun' | 'plural' | 'listPath' | 'need' | 'useRemove' | 'useRestore' | 'restoreNeed'
>;
type FromRecord = 'noun' | 'basePath' | 'permissions' | 'useRemove' | 'useRestore' | 'restoreNeed';

/** The list screen of a record type (users, roles, permissions) from its definition. */
export function RecordList<T extends Versioned>({
  record,
  ...props
}: Omit<ResourceListProps<T>, FromRecord> & { record: RecordListSource<T> }) {
  return (
    <ResourceList<T>
      {...props}
      noun={[record.noun, record.plural]}
      basePath={record.listPath}
      permissions={record.need}
      useRemove={record.useRemove}
      useRestore={record.useRestore}
      restoreNeed={record.restoreNeed}
    />
  );
}

function ResourceListScreen<T extends { _id: string }>(props: ResourceListProps<T>) {
  const { noun, permissions, bulkActions, rowName } = props;
  const { fetchPage, deleteOne, restoreMany } = useListActions(props);
  const controls = useListView(props.slice, props.urlConfig);
  const result = (props.useList ?? props.endpoint.useQuery)(controls.query, {
    skip: controls.restoring,
  });
  // Row checkboxes only for those who may act on a selection.
  const missingDelete = useMissingPermissions(permissions.delete ?? []);
  const canDelete = !!permissions.delete && !!deleteOne && missingDelete.length === 0;
  useClampPage(controls, result.currentData?.totalPages);
  const [bulkOpen, setBulkOpen] = useState(false);
  const csv = useCsvExport(
    props.csvColumns,
    (page) => fetchPage({ ...controls.query, page, pageSize: 100 }),
    noun,
  );
  const matching = useMatchingSelection(controls.query, props.fetchMatchingIds, noun);
  const { table, resetColumns } = useServerTable({
    columns: listColumns({ ...props, selectable: canDelete || !!bulkActions }),
    answer: result.data,
    controls,
    initialHidden: props.initialHidden,
    storageKey: props.slice.name,
    selectable: canDelete || !!bulkActions,
  });
  const selectedRows = table.getSelectedRowModel().rows.map((r) => r.original);
  const pageRows = table.getRowModel().rows.length;
  const allMatching = matching.current(table.getIsAllPageRowsSelected());
  // Delete and the bulk changes act on the same selection: the page's rows or every matching one.
  const selectedIds = allMatching ? allMatching.ids : selectedRows.map((row) => row._id);
  const rowOf = (id: string) =>
    table.getRowModel().rows.find((r) => r.original._id === id)?.original;
  const clearSelection = () => {
    table.resetRowSelection();
    matching.forget();
  };

  if ((result.error as { status?: unknown } | undefined)?.status === 403)
    return <ForbiddenState need={[permissions.read]} what={`the ${noun[1]} list`} />;
  const filtersActive = filtersActiveIn(controls, props.urlConfig);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <ListHeader {...props} />
      <div className="flex flex-wrap items-center gap-2">
        <ListFilters
          controls={controls}
          facets={props.facets}
          searchLabel={props.searchLabel}
          extra={props.toolbarExtra?.(controls)}
          filtersActive={filtersActive}
          onResetView={
            props.fullReset
              ? () => {
                  controls.resetAll();
                  resetColumns();
                }
              : undefined
          }
        />
        <ListSelectionActions
          table={table}
          noun={noun}
          deleteNeed={canDelete ? (permissions.delete ?? null) : null}
          selectedCount={selectedIds.length}
          onDelete={() => setBulkOpen(true)}
          bulkActions={bulkActions?.({
            ids: selectedIds,
            nameOf: (id) => {
              const row = rowOf(id);
              return row ? rowName(row) : id;
            },
            clear: clearSelection,
          })}
          exportProgress={csv.progress}
          onExport={() => void csv.exportCsv()}
        />
      </div>
      {props.fetchMatchingIds && pageRows > 0 && table.getIsAllPageRowsSelected() ? (
        <SelectionBanner
          pageCount={pageRows}
          total={result.data?.total ?? pageRows}
          matching={
            allMatching ? { count: allMatching.ids.length, truncated: allMatching.truncated } : null
          }
          loading={matching.loading}
          noun={noun}
          onSelectMatching={() => void matching.select()}
          onClear={clearSelection}
        />
      ) : null}
      <ListBody
        table={table}
        title={props.title}
        noun={noun}
        result={result}
        controls={controls}
        filtersActive={filtersActive}
        selectedCount={selectedIds.length}
      />
      {deleteOne ? (
        <BulkDeleteDialog
          open={bulkOpen}
          onOpenChange={setBulkOpen}
          ids={selectedIds}
          rowOf={rowOf}
          noun={noun}
          rowName={rowName}
          nameById={props.nameById}
          protectedReason={props.protectedReason}
          deleteOne={deleteOne}
          restoreMany={restoreMany}
          onDone={clearSelection}
        />
      ) : null}
    </div>
  );
}

/** The list's title, description, the screen's own actions and "Create …". */
function ListHeader<T extends { _id: string }>(props: ResourceListProps<T>) {
  const create = props.permissions.create;
  return (
    <PageHeader
      title={props.title}
      description={props.description}
      actions={
        <>
          {props.headerActions}
          {create ? (
            <GatedButton need={create} to={`${props.basePath}/create`}>
              <Plus aria-hidden="true" /> Create {props.noun[0]}
            </GatedButton>
          ) : null}
        </>
      }
    />
  );
}

/** A page past the end (after deleting the last rows, or `?page=999`) moves to the last real one. */
function useClampPage(controls: ListViewControls, totalPages: number | undefined) {
  const lastPage = totalPages === undefined ? null : Math.max(totalPages, 1);
  const { clampPage, view } = controls;
  useEffect(() => {
    if (lastPage !== null && view.currentPage > lastPage) clampPage(lastPage);
  }, [lastPage, view.currentPage, clampPage]);
}
