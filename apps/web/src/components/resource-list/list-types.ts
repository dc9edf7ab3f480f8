import type { ColumnDef, VisibilityState } from '@tanstack/react-table';
import type * as React from 'react';
import type { Paginated } from '@pa/contracts/list-query';
import type { FacetOption, FacetSearch } from '@/components/data-table/data-table-facet-filter';
import type { ListViewControls } from '@/hooks/use-list-view';
import type { CsvColumn } from '@/lib/csv';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import type { ListViewSlice } from '@/lib/list-view-slices';
import type { PermissionCode } from '@/lib/permission-gate';

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
  fetchMatchingIds?: (query: ListQueryArgs) => Promise<MatchingIds>;
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
