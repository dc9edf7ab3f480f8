import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { POWER7_API_URL } from '@/config/env';
import { refreshSessionOutcome } from '@/lib/api/base-query';
import { csrfHeader } from '@/lib/api/power7-api';
import type { RootStateWithAuth } from '@/lib/session/auth-slice';
import { isTokenExpired } from '@/lib/token';

/**
 * Headers for the calls that bypass RTK Query (the upload with its progress, file downloads): the
 * bearer token, refreshed first when it is about to expire (the same shared refresh as every other
 * call), and the CSRF header. Null when the sign-in was refused (the app is leaving for the sign-in
 * page); a TypeError, like fetch's own, when the portal did not answer the refresh.
 */
export function usePower7Headers() {
  const store = useStore<RootStateWithAuth>();
  return useCallback(
    async (forceRefresh = false): Promise<Record<string, string> | null> => {
      let token = store.getState().auth.accessToken;
      if (token && (forceRefresh || isTokenExpired(token))) {
        const outcome = await refreshSessionOutcome(store);
        // A refused sign-in is on its way to the sign-in page; a portal that did not answer is a
        // transport failure like the call's own, so the caller says so instead of doing nothing.
        if (outcome === 'rejected') return null;
        if (outcome === 'unreachable') throw new TypeError('The sign-in service did not answer.');
        token = store.getState().auth.accessToken;
      }
      return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...csrfHeader() };
    },
    [store],
  );
}

export const power7Url = (path: string) => `${POWER7_API_URL}${path}`;
