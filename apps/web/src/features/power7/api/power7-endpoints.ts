import type { Paginated } from '@pa/contracts/list-query';
import type {
  ExposureAnswer,
  ExposureBody,
  FilterAnswerView,
  FilterBody,
  InsightAnswer,
  InsightBody,
  Power7Session,
  Power7Status,
  WinnersAnswer,
} from '@pa/contracts/power7';
import { power7Api } from '@/lib/api/power7-api';

export interface WinnersArgs {
  session: string;
  combo: string;
  matchType: number;
  page: number;
  pageSize: number;
}

/** The Power 7 tool's calls (docs/reference/power7-api.md); the upload goes through `uploadCustomerFile`. */
export const power7Endpoints = power7Api.injectEndpoints({
  endpoints: (build) => ({
    power7Sessions: build.query<Paginated<Power7Session>, { page: number; pageSize: number }>({
      query: (params) => ({ url: '/power7/sessions/', params }),
      providesTags: ['Power7Process'],
    }),
    processingStatus: build.query<Power7Status, { session: string }>({
      query: (params) => ({ url: '/power7/processing-status/', params }),
      providesTags: ['Power7Process'],
    }),
    // A read, so a query (cached per body) rather than the seed's mutation: nothing changes on the
    // server, and paging back and forth is answered from the cache.
    filterDraws: build.query<FilterAnswerView, FilterBody>({
      query: (body) => ({ url: '/filter/', method: 'POST', body }),
    }),
    // Exact answers over every draw; a read, so a query cached per question like filterDraws.
    insight: build.query<InsightAnswer, InsightBody>({
      query: (body) => ({ url: '/insight/', method: 'POST', body }),
    }),
    // Where the tail comes from: combinations or customers ranked by their payouts in the draws over
    // the line. A read (cached per question), like the insight.
    exposure: build.query<ExposureAnswer, ExposureBody & { session: string }>({
      query: ({ session, ...body }) => ({
        url: `/power7/sessions/${encodeURIComponent(session)}/exposure/`,
        method: 'POST',
        body,
      }),
    }),
    /** The service's limits the browser checks before an upload (`uploadMaxBytes`). */
    power7ServiceStatus: build.query<{ uploadMaxBytes?: number }, void>({
      query: () => ({ url: '/status/' }),
    }),
    winners: build.query<WinnersAnswer, WinnersArgs>({
      query: ({ session, combo, matchType, page, pageSize }) => ({
        url: `/winners/${combo}/${matchType}/`,
        params: { session, page, pageSize },
      }),
    }),
    clearAllSessions: build.mutation<{ deleted: number }, void>({
      query: () => ({ url: '/sessions/clear-all/', method: 'POST', body: {} }),
      invalidatesTags: ['Power7Process'],
    }),
  }),
});

export const {
  usePower7SessionsQuery,
  useProcessingStatusQuery,
  useFilterDrawsQuery,
  useInsightQuery,
  useExposureQuery,
  usePower7ServiceStatusQuery,
  useWinnersQuery,
  useClearAllSessionsMutation,
} = power7Endpoints;
