import { formatSort, parseSort } from '@pa/contracts/list-query';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/config/constants';
import type { SortItem } from '@pa/contracts/paging';
import type { ListViewState } from './list-view-slices';

/**
 * A list's view in the URL (`?page=2&pageSize=20&sort=name:asc&search=ada&filters[status]=active`),
 * so a copied link, a reload and the back button show the same view. Values equal to the defaults are
 * left out; anything unknown or malformed falls back to the default instead of reaching the server.
 */

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface ListUrlConfig {
  defaultSort: readonly SortItem[];
  sortFields: readonly string[];
  filterKeys: readonly string[];
}

export type ListView = Omit<ListViewState, 'selectedId'>;

/** A multi-value filter's values (`active,locked` → both); empty for none. */
export const splitFilterValues = (value: string | undefined): string[] =>
  [...new Set((value ?? '').split(',').map((v) => v.trim()))].filter(Boolean);

/** The inverse of `splitFilterValues`: undefined (no filter) for no values. */
export const joinFilterValues = (values: readonly string[]): string | undefined =>
  values.length ? [...new Set(values)].join(',') : undefined;

const FILTER_PARAM = /^filters\[([A-Za-z0-9_]+)\]$/;
const positiveInt = (text: string | null) =>
  text && /^[1-9][0-9]{0,6}$/.test(text) ? Number(text) : null;

export function defaultListView(config: ListUrlConfig): ListView {
  return {
    filters: {},
    searchCriteria: '',
    sort: config.defaultSort.map((item) => ({ ...item })),
    currentPage: DEFAULT_PAGE,
    pageSize: DEFAULT_PAGE_SIZE,
  };
}

/** True when the URL says anything about the list (otherwise the remembered view may be shown). */
export function hasListParams(params: URLSearchParams): boolean {
  for (const key of params.keys()) {
    if (['page', 'pageSize', 'sort', 'search'].includes(key) || FILTER_PARAM.test(key)) return true;
  }
  return false;
}

export function parseListView(params: URLSearchParams, config: ListUrlConfig): ListView {
  const view = defaultListView(config);
  view.currentPage = positiveInt(params.get('page')) ?? DEFAULT_PAGE;
  const size = positiveInt(params.get('pageSize'));
  if (size && (PAGE_SIZES as readonly number[]).includes(size)) view.pageSize = size;
  view.searchCriteria = (params.get('search') ?? '').slice(0, 200);
  const sort = params.get('sort');
  // `sort=` (present but empty) means "no sort", which differs from the default of some lists.
  if (sort !== null) {
    const items = parseSort(sort);
    const seen = new Set<string>();
    view.sort = items.filter(
      (item) =>
        config.sortFields.includes(item.field) &&
        (item.order === 'asc' || item.order === 'desc') &&
        !seen.has(item.field) &&
        seen.add(item.field),
    );
  }
  for (const [key, value] of params) {
    const name = FILTER_PARAM.exec(key)?.[1];
    if (name && config.filterKeys.includes(name) && value) view.filters[name] = value.slice(0, 200);
  }
  return view;
}

const sameSort = (a: readonly SortItem[], b: readonly SortItem[]) =>
  formatSort(a) === formatSort(b);

export function listViewToParams(view: ListView, config: ListUrlConfig): URLSearchParams {
  const params = new URLSearchParams();
  if (view.currentPage !== DEFAULT_PAGE) params.set('page', String(view.currentPage));
  if (view.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(view.pageSize));
  if (!sameSort(view.sort, config.defaultSort)) params.set('sort', formatSort(view.sort));
  if (view.searchCriteria) params.set('search', view.searchCriteria);
  for (const key of Object.keys(view.filters).sort()) {
    const value = view.filters[key];
    if (value) params.set(`filters[${key}]`, value);
  }
  return params;
}

/** The list query the portal API takes for this view. */
export function listViewToQuery(view: ListView) {
  return {
    page: view.currentPage,
    pageSize: view.pageSize,
    search: view.searchCriteria.trim() || undefined,
    sort: formatSort(view.sort) || undefined,
    filters: Object.keys(view.filters).length ? view.filters : undefined,
  };
}

export type ListQueryArgs = ReturnType<typeof listViewToQuery>;

export function isDefaultView(view: ListView, config: ListUrlConfig): boolean {
  return listViewToParams(view, config).toString() === '';
}
