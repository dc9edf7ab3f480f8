import { asc, desc, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SortOrder } from '@pa/contracts/list-query';

/**
 * SQL building blocks of the list protocol (docs/product/services.md §4) shared by the administration lists
 * (users, roles, permissions, audit events): search, whitelisted multi-field sort, paging.
 */

/**
 * Fastify's query-string parser keeps `filters[status]=active` as a flat key; the list schemas want
 * `{ filters: { status: 'active' } }`. Folds every `name[key]` into a nested object (one level, which
 * is all the protocol uses). A repeated filter (`filters[status]=active&filters[status]=locked`) is
 * the same as its values joined by commas (any of them); any other repeated key keeps its last value.
 */
export function foldBracketKeys(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    const match = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (!match) {
      out[key] = last;
      continue;
    }
    const [, name = '', inner = ''] = match;
    const nested = (out[name] ??= {});
    const joined =
      Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : last;
    if (nested && typeof nested === 'object') (nested as Record<string, unknown>)[inner] = joined;
  }
  return out;
}

/** Escapes LIKE wildcards so a search for `50%_off` matches those characters literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive "contains" over some columns; undefined (no condition) for an empty search. */
export function searchAcross(
  search: string | undefined,
  columns: (AnyColumn | SQL)[],
): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const pattern = `%${escapeLike(text)}%`;
  return or(...columns.map((column) => ilike(column, pattern)));
}

/**
 * ORDER BY for a whitelisted sort (the list schema already refused unknown fields). The row id is
 * always the last key, so pages are stable even when the sort fields tie.
 */
export function orderFor<F extends string>(
  sort: { field: F; order: SortOrder }[],
  columns: Record<F, AnyColumn | SQL>,
  id: AnyColumn,
  fallback: { field: F; order: SortOrder }[],
): SQL[] {
  const items = sort.length > 0 ? sort : fallback;
  const order = items.map((item) =>
    item.order === 'desc' ? desc(columns[item.field]) : asc(columns[item.field]),
  );
  const idSorted = items.find((item) => columns[item.field] === id);
  if (!idSorted) order.push(asc(id));
  return order;
}

/** `count(*)` as a JavaScript number. */
export const countAll = sql<number>`count(*)::int`;

/** LIMIT / OFFSET of a page (page from 1). */
export const pageWindow = (page: number, pageSize: number) => ({
  limit: pageSize,
  offset: (page - 1) * pageSize,
});
