import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import type { SessionStatus } from '@pa/contracts/power7';
import { POLL_MS, useDocumentVisible } from '../../hooks/use-document-visible';
import { useProcessingStatusQuery } from '../../api/power7-endpoints';

/** Polls while the job can still change and the page is visible; 0 stops polling. */
export function pollInterval(status: SessionStatus | undefined, visible: boolean): number {
  if (!visible) return 0;
  return status === undefined || status === 'queued' || status === 'running' ? POLL_MS : 0;
}

/**
 * The session's status, polled until the job is done, failed or cancelled; paused while the tab
 * is hidden (and refreshed when it shows again). The request layer refreshes an expiring token
 * between polls, so a long job outlives the access token.
 */
export function useStatusPolling(session: string | null) {
  const visible = useDocumentVisible();
  const [status, setStatus] = useState<SessionStatus | undefined>(undefined);
  const query = useProcessingStatusQuery(session ? { session } : skipToken, {
    pollingInterval: pollInterval(status, visible),
    refetchOnFocus: true,
  });
  // the interval follows the status the last answer gave (state adjusted while rendering)
  const current = query.data?.status;
  if (current !== status) setStatus(current);
  useEffect(() => {
    if (visible && session && (status === 'queued' || status === 'running')) void query.refetch();
    // only when the page becomes visible again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible]);
  return query;
}
