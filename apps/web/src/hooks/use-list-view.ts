import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import {
  hasListParams,
  isDefaultView,
  listViewToParams,
  listViewToQuery,
  parseListView,
  type ListUrlConfig,
  type ListView,
} from '@/lib/list-url';
import { DEFAULT_PAGE_SIZE, type SortItem } from '@pa/contracts/paging';
import { storedPageSize, storePageSize } from '@/lib/list-prefs';
import type { ListViewSlice, ListViewState } from '@/lib/list-view-slices';

/**
 * One list's view, kept in the URL and mirrored into its seed slice. The URL is the record (so
 * links, reloads and the back button restore it); the slice's own reducers compute every change, so
 * "reset filters", "set page size" and the rest mean exactly what the seed says. Returning to a list
 * through a link without parameters shows the view the slice remembers.
 */
export function useListView(slice: ListViewSlice, config: ListUrlConfig) {
  const dispatch = useDispatch();
  const [params, setParams] = useSearchParams();
  const remembered = useSelector(
    (state: Record<string, unknown>) => state[slice.name] as ListViewState,
  );
  const view = useMemo(() => parseListView(params, config), [params, config]);

  // Once, when the list opens without parameters: bring back the remembered view, with the page
  // size chosen in an earlier visit (kept in localStorage).
  const [restoreFrom] = useState(() => {
    if (hasListParams(params)) return null;
    const stored = storedPageSize(slice.name);
    const base =
      stored && remembered.pageSize === DEFAULT_PAGE_SIZE
        ? { ...remembered, pageSize: stored }
        : remembered;
    return isDefaultView(base, config) ? null : base;
  });
  const restoring = restoreFrom !== null && !hasListParams(params);
  const restoredOnce = useRef(false);
  useEffect(() => {
    if (!restoreFrom || restoredOnce.current) return;
    restoredOnce.current = true;
    setParams(listViewToParams(restoreFrom, config), { replace: true });
  }, [restoreFrom, config, setParams]);

  useEffect(() => {
    if (!restoring) dispatch(slice.actions.restoreView(view));
  }, [dispatch, slice, view, restoring]);

  // A view change that lands while the user is already on the way to another page (a debounced
  // search firing while the next page's code loads) must not pull them back to the list: a new
  // navigation would cancel the one under way.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving =
    navigation.state !== 'idle' && navigation.location?.pathname !== undefined
      ? navigation.location.pathname !== pathname
      : false;
  // The router can also have committed the next page while React still draws this list (the next
  // page suspends inside the router's transition): navigation is idle again, but the address bar
  // already shows the other page. Checked only under a router that drives the address bar (a
  // memory router in tests never changes it).
  const [inAddressBar] = useState(
    () => typeof window !== 'undefined' && window.location.pathname === pathname,
  );
  const apply = useCallback(
    (action: { type: string }, options: { replace?: boolean } = {}) => {
      if (leaving) return;
      if (inAddressBar && window.location.pathname !== pathname) return;
      const next = slice.reducer({ ...view, selectedId: null }, action);
      setParams(listViewToParams(next, config), options);
    },
    [slice, view, config, setParams, leaving, inAddressBar, pathname],
  );

  const { actions } = slice;
  return {
    view,
    /** Skip the first fetch while the remembered view is put into the URL. */
    restoring,
    query: listViewToQuery(view),
    setPage: (page: number) => apply(actions.setCurrentPage(page)),
    /** Moves off a page past the end (after deletes, or `?page=999`) without a history entry. */
    clampPage: (last: number) => apply(actions.setCurrentPage(last), { replace: true }),
    setPageSize: (size: number) => {
      storePageSize(slice.name, size === DEFAULT_PAGE_SIZE ? null : size);
      apply(actions.setPageSize(size));
    },
    setSort: (sort: SortItem[]) => apply(actions.setSort(sort)),
    setSearch: (text: string) => apply(actions.setSearchCriteria(text), { replace: true }),
    setFilter: (key: string, value: string | undefined) => {
      const filters = { ...view.filters };
      if (value) filters[key] = value;
      else delete filters[key];
      apply(actions.setFilters(filters));
    },
    resetFilters: () => apply(actions.resetFilters()),
    resetAll: () => {
      storePageSize(slice.name, null);
      apply(actions.resetState());
    },
  };
}

export type ListViewControls = ReturnType<typeof useListView>;
export type { ListView };
