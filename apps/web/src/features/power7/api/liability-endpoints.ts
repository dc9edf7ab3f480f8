import type {
  CapAnswerView,
  LimitAnswerView,
  LimitApplyBody,
  LimitJobView,
  Power7Session,
} from '@pa/contracts/power7';
import { power7Api } from '@/lib/api/power7-api';
import { refusedPage, type RefusedPage } from '../liability/lib/limit-text';

const sessionPath = (session: string) => `/power7/sessions/${encodeURIComponent(session)}`;

/** A limit's answer, or (202) where its run is asked for and how far it is. */
export type LimitRunState = LimitAnswerView | LimitJobView;

export const isLimitJob = (state: LimitRunState): state is LimitJobView => 'resultUrl' in state;

/** The liability limit of a finished session (issue #41): its run, the cap, the refused rows. */
export const liabilityEndpoints = power7Api.injectEndpoints({
  endpoints: (build) => ({
    // reads: queries cached per session and limit, like the insight
    limitRun: build.query<LimitRunState, { session: string; limit: number }>({
      query: ({ session, limit }) => ({
        url: `${sessionPath(session)}/limit/`,
        method: 'POST',
        body: { limit },
      }),
    }),
    // a run that outlasted the service's wait: its address (under /api, as the service names it)
    limitResult: build.query<LimitRunState, { resultUrl: string }>({
      query: ({ resultUrl }) => resultUrl.replace(/^\/api\//, '/'),
    }),
    capRun: build.query<CapAnswerView, { session: string; limit: number }>({
      query: ({ session, limit }) => ({
        url: `${sessionPath(session)}/cap/`,
        method: 'POST',
        body: { limit },
      }),
    }),
    // the CSV read as text and kept as its first rows only (the whole file can be long)
    refusedRows: build.query<RefusedPage, { session: string; limit: number }>({
      query: ({ session, limit }) => ({
        url: `${sessionPath(session)}/limit/refused.csv?limit=${limit}`,
        responseHandler: 'text',
      }),
      transformResponse: (text: string) => refusedPage(text),
    }),
    applyLimit: build.mutation<Power7Session, { session: string; body: LimitApplyBody }>({
      query: ({ session, body }) => ({
        url: `${sessionPath(session)}/limit/apply/`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Power7Process'],
    }),
  }),
});

export const {
  useLimitRunQuery,
  useLimitResultQuery,
  useCapRunQuery,
  useRefusedRowsQuery,
  useApplyLimitMutation,
} = liabilityEndpoints;
