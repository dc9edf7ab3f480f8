import type { ColumnDef, VisibilityState } from '@tanstack/react-table';
import type * as React from 'react';
import type { Paginated } from '@pa/contracts/list-query';
import type { FacetOption, FacetSearch } from '@/components/data-table/data-table-facet-filter';
import type { ListViewControls } from '@/hooks/use-list-view';
import type { CsvColumn } from '@/lib/csv';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import type { ListViewSlice } from '@/lib/list-view-slices';
import type { PermissionCode } from '@/lib/permission-gate';
import type { IdMutation } from '@/components/record/record-definition';

/** What the server answers for "select all N matching". */
export interface MatchingIds {
  ids: string[];
  total: number;
  truncated: boolean;
}

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

/** A list query endpoint of RTK Query, as far as a list screen needs it. */
export interface ListEndpoint<T> {
  useQuery: (args: ListQueryArgs, options: { skip: boolean }) => ListResult<T>;
  initiate: (
    args: ListQueryArgs,
    options: { subscribe: boolean; forceRefetch: boolean },
  ) => unknown;
}

export interface ResourceListProps<T extends { _id: string }> {
  title: string;
  description: string;
  /** Singular and plural nouns ("user", "users"). */
  noun: [string, string];
  basePath: string;
  slice: ListViewSlice;
  urlConfig: ListUrlConfig;
  /** The list's RTK Query endpoint: its pages on screen and, for the CSV export, every page. */
  endpoint: ListEndpoint<T>;
  /** Reads the list another way than `endpoint.useQuery` (the audit trail, grouped by request). */
  useList?: (args: ListQueryArgs, options: { skip: boolean }) => ListResult<T>;
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
  /** Deletes one row (an RTK Query mutation hook); without it, no delete. */
  useRemove?: IdMutation;
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
  fetchMatchingIds?: (query: ListQueryArgs) => Promise<MatchingIds>;
  /** Brings a deleted row back: the bulk delete's toast then offers "Undo". */
  useRestore?: IdMutation;
  /** Who may undo a delete besides holding the delete permission (null: no more is needed). */
  restoreNeed?: PermissionCode | null;
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
