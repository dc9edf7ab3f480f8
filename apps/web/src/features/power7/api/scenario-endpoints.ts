import type {
  InsightAnswer,
  InsightBody,
  Power7Session,
  RerunBody,
  SessionEdit,
} from '@pa/contracts/power7';
import { power7Api } from '@/lib/api/power7-api';

/** Scenarios (rerun, compare) and keeping track of sessions (name, note, delete): issue #25. */
export const scenarioEndpoints = power7Api.injectEndpoints({
  endpoints: (build) => ({
    rerunSession: build.mutation<Power7Session, { session: string; body: RerunBody }>({
      query: ({ session, body }) => ({
        url: `/power7/sessions/${encodeURIComponent(session)}/rerun/`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Power7Process'],
    }),
    editSession: build.mutation<Power7Session, { session: string; body: SessionEdit }>({
      query: ({ session, body }) => ({
        url: `/power7/sessions/${encodeURIComponent(session)}/`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['Power7Process'],
    }),
    deleteSession: build.mutation<{ deleted: number }, string>({
      query: (session) => ({
        url: `/power7/sessions/${encodeURIComponent(session)}/`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Power7Process'],
    }),
    // a read: a query cached per body, like the filter
    sessionInsight: build.query<InsightAnswer, InsightBody>({
      query: (body) => ({ url: '/insight/', method: 'POST', body }),
    }),
  }),
});

export const {
  useRerunSessionMutation,
  useEditSessionMutation,
  useDeleteSessionMutation,
  useLazySessionInsightQuery,
} = scenarioEndpoints;
