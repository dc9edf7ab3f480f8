import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { filterBodySchema } from '@pa/contracts/power7';
import type {
  FilterAnswer,
  FilterQuery,
  OpenSession,
  SortKey,
} from '@pa/power7-engine/session-store';

/** A filter request as `filterBodySchema` parsed it (defaults applied). */
type FilterRequest = z.output<typeof filterBodySchema>;

/** Filter answers kept per service (a page is a few KB). */
const FILTER_CACHE_ENTRIES = 256;

/** The engine's query for a filter request. */
export function toFilterQuery(body: FilterRequest): FilterQuery {
  const query: FilterQuery = { page: body.page, pageSize: body.pageSize };
  if (body.sort) {
    const [by, direction] = body.sort.split(':') as [SortKey, 'asc' | 'desc'];
    query.sort = { by, direction };
  }
  const f = body.filters;
  if (f?.winners) {
    query.winners = {};
    for (const m of [3, 4, 5, 6, 7] as const) {
      const range = f.winners[m];
      if (range) query.winners[m] = range;
    }
  }
  if (f?.totalPayout) query.totalPayout = f.totalPayout;
  if (f?.mustInclude) query.mustInclude = f.mustInclude;
  if (f?.mustExclude) query.mustExclude = f.mustExclude;
  return query;
}

/**
 * Filter answers of finished sessions. Their results never change, so identical queries (paging back
 * and forth, several tabs) are answered from a small cache; a new one comes from the session's filter
 * index, its remaining scan on the engine's threads (`filterAsync`), stopped when `signal` aborts.
 */
export class FilterAnswers {
  private readonly answers = new LRUCache<string, FilterAnswer>({ max: FILTER_CACHE_ENTRIES });

  async answer(
    sessionId: string,
    session: OpenSession,
    body: FilterRequest,
    signal?: AbortSignal,
  ): Promise<FilterAnswer> {
    const query = toFilterQuery(body);
    const key = `${sessionId}|${JSON.stringify(query)}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const answer = await session.filterAsync(query, signal);
    this.answers.set(key, answer);
    return answer;
  }
}
