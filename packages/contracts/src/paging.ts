/**
 * The paging constants and sort types of every list, without zod: the web app's first load imports
 * them (docs/product/web.md §9: page 1, size 10; docs/product/services.md §4: size ≤ 100).
 * `list-query.ts` builds the wire schemas on them.
 */
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export type SortOrder = 'asc' | 'desc';

export interface SortItem {
  field: string;
  order: SortOrder;
}
