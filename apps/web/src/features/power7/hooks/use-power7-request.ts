import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { POWER7_API_URL } from '@/config/env';
import { refreshSession } from '@/lib/api/base-query';
import { csrfHeader } from '@/lib/api/power7-api';
import type { RootStateWithAuth } from '@/lib/session/auth-slice';
import { isTokenExpired } from '@/lib/token';

/**
 * Headers for the calls that bypass RTK Query (the upload with its progress, file downloads): the
 * bearer token, refreshed first when it is about to expire (the same shared refresh as every other
 * call), and the CSRF header.
 */
export function usePower7Headers() {
  const store = useStore<RootStateWithAuth>();
  return useCallback(
    async (forceRefresh = false): Promise<Record<string, string> | null> => {
      let token = store.getState().auth.accessToken;
      if (token && (forceRefresh || isTokenExpired(token))) {
        if (!(await refreshSession(store))) return null;
        token = store.getState().auth.accessToken;
      }
      return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...csrfHeader() };
    },
    [store],
  );
}

export const power7Url = (path: string) => `${POWER7_API_URL}${path}`;
