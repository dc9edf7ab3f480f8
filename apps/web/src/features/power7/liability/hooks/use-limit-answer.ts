import { skipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import type { LimitAnswerView } from '@pa/contracts/power7';
import {
  isLimitJob,
  useLimitResultQuery,
  useLimitRunQuery,
  type LimitRunState,
} from '../../api/liability-endpoints';
import { POLL_MS, useDocumentVisible } from '../../hooks/use-document-visible';

/** Tickets decided in sales order so far, of all the session's tickets. */
export interface LimitProgress {
  done: number;
  total: number;
}

export interface LimitAnswerState {
  answer: LimitAnswerView | undefined;
  /** While the run goes on past the service's wait (202): how far it is. */
  progress: LimitProgress | undefined;
  error: unknown;
  retry: () => void;
}

const answerOf = (state: LimitRunState | undefined) =>
  state && !isLimitJob(state) ? state : undefined;

/**
 * A limit's answer on a session: the POST's, or — when the run outlasts the service's wait and it
 * answers 202 — its `resultUrl` polled (paused while the page is hidden) until the answer comes.
 * Every part of the liability section asks this; the requests are shared.
 */
export function useLimitAnswer({
  session,
  limit,
}: {
  session: string;
  limit: number;
}): LimitAnswerState {
  const visible = useDocumentVisible();
  const run = useLimitRunQuery({ session, limit });
  const job = run.currentData && isLimitJob(run.currentData) ? run.currentData : undefined;
  const [polling, setPolling] = useState(true);
  const result = useLimitResultQuery(job ? { resultUrl: job.resultUrl } : skipToken, {
    pollingInterval: polling && visible ? POLL_MS : 0,
  });
  // polled until it answers (state adjusted while rendering, as the status polling does)
  const running = !answerOf(result.currentData) && !result.error;
  if (running !== polling) setPolling(running);
  const answer = answerOf(run.currentData) ?? answerOf(result.currentData);
  const latest = result.currentData ?? job;
  return {
    answer,
    progress: !answer && latest && isLimitJob(latest) ? latest.progress : undefined,
    error: run.error ?? (job ? result.error : undefined),
    // a failed run is run again by a new ask (POST), then its address is asked again
    retry: () =>
      void run.refetch().then(() => {
        if (job) void result.refetch();
      }),
  };
}
