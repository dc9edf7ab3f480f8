import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SortItem } from '@pa/contracts/paging';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/config/constants';

/** List-view state of docs/product/web.md §3: selection, filters, search, sort and paging of one list. */
export interface ListViewState {
  selectedId: string | null;
  filters: Record<string, string>;
  searchCriteria: string;
  sort: SortItem[];
  currentPage: number;
  pageSize: number;
}

export const listViewDefaults = (sort: SortItem[] = []): ListViewState => ({
  selectedId: null,
  filters: {},
  searchCriteria: '',
  sort,
  currentPage: DEFAULT_PAGE,
  pageSize: DEFAULT_PAGE_SIZE,
});

const ID_DESC: SortItem[] = [{ field: '_id', order: 'desc' }];

function createListViewSlice<Name extends string>(name: Name, defaultSort: SortItem[]) {
  const initialState = listViewDefaults(defaultSort);
  return createSlice({
    name,
    initialState,
    reducers: {
      setSelectedId(state, { payload }: PayloadAction<string | null>) {
        state.selectedId = payload;
      },
      setFilters(state, { payload }: PayloadAction<Record<string, string>>) {
        state.filters = payload;
        state.currentPage = DEFAULT_PAGE;
      },
      setSearchCriteria(state, { payload }: PayloadAction<string>) {
        state.searchCriteria = payload;
        state.currentPage = DEFAULT_PAGE;
      },
      setSort(state, { payload }: PayloadAction<SortItem[]>) {
        state.sort = payload;
      },
      setCurrentPage(state, { payload }: PayloadAction<number>) {
        state.currentPage = payload;
      },
      setPageSize(state, { payload }: PayloadAction<number>) {
        state.pageSize = payload;
        state.currentPage = DEFAULT_PAGE;
      },
      /** Replaces the view with the one a URL describes (copied link, reload, back button). */
      restoreView(state, { payload }: PayloadAction<Omit<ListViewState, 'selectedId'>>) {
        return { ...payload, selectedId: state.selectedId };
      },
      /** Seed §4: clears filters, search criteria and sort and returns to page 1. */
      resetFilters(state) {
        state.filters = {};
        state.searchCriteria = '';
        state.sort = [];
        state.currentPage = DEFAULT_PAGE;
      },
      /** Full reset to the defaults (docs/product/web.md §4: users, company permissions and roles). */
      resetState() {
        return initialState;
      },
    },
  });
}

// Permission and role lists sort by _id descending (newest first); the others start unsorted.
// The seed's companyPermission and companyRole lists are these two: every permission and role here
// belongs to the signed-in user's company, so one slice each (with the full reset the seed gives the
// company lists) rather than a second, unused copy (docs/reference/admin-screens.md).
export const permissionSlice = createListViewSlice('permission', ID_DESC);
export const roleSlice = createListViewSlice('role', ID_DESC);
export const userSlice = createListViewSlice('user', []);
/** The audit trail (beyond the seed): newest first by the server when unsorted. */
export const auditSlice = createListViewSlice('audit', []);

type UserSliceActions = typeof userSlice.actions;

/** What list screens need of any of these slices (their names differ, their shape does not). */
export interface ListViewSlice {
  name: string;
  reducer: (state: ListViewState | undefined, action: { type: string }) => ListViewState;
  actions: {
    [K in keyof UserSliceActions]: (...args: Parameters<UserSliceActions[K]>) => {
      type: string;
      payload?: unknown;
    };
  };
  getInitialState: () => ListViewState;
}
