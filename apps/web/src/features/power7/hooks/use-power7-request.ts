import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { POWER7_API_URL } from '@/config/env';
import { refreshSessionOutcome } from '@/lib/api/base-query';
import { csrfHeader } from '@/lib/api/power7-api';
import type { RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import { isTokenExpired } from '@/lib/token';

/**
 * Headers for the calls that bypass RTK Query (the upload with its progress, file downloads): the
 * bearer token, refreshed first when it is about to expire (the same shared refresh as every other
 * call), and the CSRF header. Null when the sign-in was refused (the app is leaving for the sign-in
 * page); a `SignInUnansweredError` when the portal did not answer the refresh.
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
        if (outcome === 'unreachable') throw new SignInUnansweredError();
        token = store.getState().auth.accessToken;
      }
      return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...csrfHeader() };
    },
    [store],
  );
}

/** The token refresh before a Power 7 call got no answer from the portal (the session stays). */
export class SignInUnansweredError extends Error {
  constructor() {
    super('Cannot reach the sign-in service. Check your connection and try again.');
    this.name = 'SignInUnansweredError';
  }
}

/** What to tell the user when a Power 7 call could not be made (not an answer of the service). */
export function unreachableMessage(error: unknown): string {
  return error instanceof SignInUnansweredError
    ? error.message
    : 'Cannot reach the Power 7 service. Check your connection and try again.';
}

export const power7Url = (path: string) => `${POWER7_API_URL}${path}`;
