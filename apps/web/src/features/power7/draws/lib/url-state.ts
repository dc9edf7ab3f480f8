import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import {
  MATCH_TYPES,
  SORT_KEYS,
  type DrawFilters,
  type DrawSortKey,
  type FilterBody,
  type MatchTypeNumber,
} from '@pa/contracts/power7';

export interface Range {
  min?: number;
  max?: number;
}

/** The draws view as the URL holds it, so a reload or a shared link shows the same list. */
export interface DrawsView {
  winners: Partial<Record<MatchTypeNumber, Range>>;
  totalPayout: Range;
  mustInclude: number[];
  mustExclude: number[];
  sort: `${DrawSortKey}:${'asc' | 'desc'}`;
  page: number;
}

export const DEFAULT_SORT: DrawsView['sort'] = 'totalPayout:desc';
export const DRAWS_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const emptyDrawsView = (): DrawsView => ({
  winners: {},
  totalPayout: {},
  mustInclude: [],
  mustExclude: [],
  sort: DEFAULT_SORT,
  page: 1,
});

const parseAmount = (text: string | undefined): number | undefined => {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** `min..max`, either side may be empty. */
function parseRange(text: string | null): Range {
  if (!text) return {};
  const [min, max] = text.split('..');
  const range: Range = {};
  const lo = parseAmount(min);
  const hi = parseAmount(max);
  if (lo !== undefined) range.min = lo;
  if (hi !== undefined) range.max = hi;
  return range;
}

const formatRange = (range: Range | undefined) =>
  range && (range.min !== undefined || range.max !== undefined)
    ? `${range.min ?? ''}..${range.max ?? ''}`
    : null;

function parseNumbers(text: string | null): number[] {
  if (!text) return [];
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const n = Number(part);
    if (Number.isInteger(n) && n >= 1 && n <= 49) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

const isSort = (text: string | null): text is DrawsView['sort'] => {
  if (!text) return false;
  const [key, order] = text.split(':');
  return SORT_KEYS.includes(key as DrawSortKey) && (order === 'asc' || order === 'desc');
};

/** Reads the draws view from the query string; anything malformed falls back to its default. */
export function drawsViewFromSearch(search: URLSearchParams): DrawsView {
  const view = emptyDrawsView();
  for (const m of MATCH_TYPES) {
    const range = parseRange(search.get(`w${m}`));
    if (range.min !== undefined || range.max !== undefined) view.winners[m] = range;
  }
  view.totalPayout = parseRange(search.get('total'));
  view.mustInclude = parseNumbers(search.get('inc'));
  view.mustExclude = parseNumbers(search.get('exc')).filter((n) => !view.mustInclude.includes(n));
  const sort = search.get('sort');
  if (isSort(sort)) view.sort = sort;
  const page = Number(search.get('page'));
  if (Number.isInteger(page) && page >= 1) view.page = page;
  return view;
}

const VIEW_KEYS = ['w3', 'w4', 'w5', 'w6', 'w7', 'total', 'inc', 'exc', 'sort', 'page'];

/** Writes the draws view into `search` (other parameters, e.g. `session`, are kept); defaults are left out. */
export function writeDrawsView(search: URLSearchParams, view: DrawsView): URLSearchParams {
  const out = new URLSearchParams(search);
  for (const key of VIEW_KEYS) out.delete(key);
  for (const m of MATCH_TYPES) {
    const range = formatRange(view.winners[m]);
    if (range) out.set(`w${m}`, range);
  }
  const total = formatRange(view.totalPayout);
  if (total) out.set('total', total);
  if (view.mustInclude.length) out.set('inc', view.mustInclude.join(','));
  if (view.mustExclude.length) out.set('exc', view.mustExclude.join(','));
  if (view.sort !== DEFAULT_SORT) out.set('sort', view.sort);
  if (view.page !== 1) out.set('page', String(view.page));
  return out;
}

/** Only the view's parameters, e.g. to carry the list's filters to the results step and back. */
export function drawsViewParams(search: URLSearchParams): URLSearchParams {
  return writeDrawsView(new URLSearchParams(), drawsViewFromSearch(search));
}

/** The filter request of a view; `position` (0-based in the sorted list) asks for that one draw. */
export function filterBodyOf(session: string, view: DrawsView, position?: number): FilterBody {
  const filters: DrawFilters = {};
  const winners = Object.fromEntries(
    Object.entries(view.winners).filter(
      ([, r]) => r && (r.min !== undefined || r.max !== undefined),
    ),
  );
  if (Object.keys(winners).length) filters.winners = winners;
  if (view.totalPayout.min !== undefined || view.totalPayout.max !== undefined) {
    filters.totalPayout = view.totalPayout;
  }
  if (view.mustInclude.length) filters.mustInclude = view.mustInclude;
  if (view.mustExclude.length) filters.mustExclude = view.mustExclude;
  const body: FilterBody = {
    session,
    sort: view.sort,
    page: position === undefined ? view.page : position + 1,
    pageSize: position === undefined ? DRAWS_PAGE_SIZE : 1,
  };
  if (Object.keys(filters).length) body.filters = filters;
  return body;
}
