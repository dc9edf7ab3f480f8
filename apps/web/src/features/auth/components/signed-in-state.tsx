import * as React from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { endSession, isSessionRejection, refreshSession } from '@/lib/api/base-query';
import { refreshCookie } from '@/lib/refresh-cookie';
import {
  selectAccessToken,
  selectIsAuthenticated,
  setCredentials,
  setUserDetails,
  type RootStateWithAuth,
} from '@/lib/signed-in/auth-slice';
import { isTokenExpired } from '@/lib/token';
import { authApi, useVerifyQuery } from '../api/auth-api';

type AppThunkDispatch = ThunkDispatch<RootStateWithAuth, unknown, UnknownAction>;

const AuthReadyContext = React.createContext(false);

/** True once the startup session check (docs/product/web.md §4) has finished. */
export const useAuthReady = () => React.useContext(AuthReadyContext);

/**
 * Startup of docs/product/web.md §4: with no access token but a refresh cookie, the session is restored (rotate,
 * then fetch the user details); an expired token is only logged and refreshed on the next call.
 * Afterwards the verification query runs while a non-expired token exists and the session is
 * authenticated; an answer that rejects the session ends it (see `isSessionRejection`).
 */
export function SignedInState({ children }: { children: React.ReactNode }) {
  const store = useStore<RootStateWithAuth>() as Store<RootStateWithAuth> & {
    dispatch: AppThunkDispatch;
  };
  const dispatch = useDispatch();
  const [ready, setReady] = React.useState(false);

  React.useEffect(() => {
    let cancelled = false;
    const init = async () => {
      try {
        const { accessToken, isAuthenticated } = store.getState().auth;
        // Also when a rotated token was persisted but the page was left before the session was
        // marked authenticated: the cookie still holds a live sign-in.
        if ((!accessToken || !isAuthenticated) && refreshCookie.get()) {
          if (await refreshSession(store)) {
            const verified = await store.dispatch(
              authApi.endpoints.verify.initiate(undefined, {
                subscribe: false,
                forceRefetch: true,
              }),
            );
            const { accessToken: token, refreshToken } = store.getState().auth;
            if (isSessionRejection(verified.error)) {
              console.error('Auth initialization error:', verified.error);
              endSession(store);
            } else if (token) {
              // Without an answer (offline, page left, server fault) the freshly rotated token still
              // stands: the session goes on and the verifier fills in the details when it can.
              if (verified.error) console.error('Auth initialization error:', verified.error);
              dispatch(
                setCredentials({
                  userDetails: verified.data ?? null,
                  accessToken: token,
                  refreshToken,
                }),
              );
            }
          }
        } else if (accessToken && isTokenExpired(accessToken)) {
          console.info('Access token expired; it will be refreshed on the next call.');
        }
      } catch (error) {
        // A fault in this code, not an answer about the session: keep the cookie.
        console.error('Auth initialization error:', error);
      } finally {
        if (!cancelled) setReady(true);
      }
    };
    void init();
    return () => {
      cancelled = true;
    };
  }, [store, dispatch]);

  return (
    <AuthReadyContext.Provider value={ready}>
      {ready ? <SessionVerifier /> : null}
      {children}
    </AuthReadyContext.Provider>
  );
}

/** How long a verification that got no answer waits before asking again. */
const VERIFY_RETRY_MS = 15_000;

function SessionVerifier() {
  const dispatch = useDispatch();
  const accessToken = useSelector(selectAccessToken);
  const isAuthenticated = useSelector(selectIsAuthenticated);
  const canVerify = isAuthenticated && !isTokenExpired(accessToken);
  const { data, error, refetch } = useVerifyQuery(undefined, { skip: !canVerify });

  React.useEffect(() => {
    if (data) dispatch(setUserDetails(data));
  }, [data, dispatch]);

  React.useEffect(() => {
    if (!error || !canVerify) return;
    console.error('Auth verification error:', error);
    // Only an answer that says the sign-in is invalid ends it; an aborted request, a network
    // failure or a server fault leaves session and cookie alone and asks again later.
    if (isSessionRejection(error)) {
      endSession({ dispatch });
      return;
    }
    const retry = window.setTimeout(() => void refetch(), VERIFY_RETRY_MS);
    return () => window.clearTimeout(retry);
  }, [error, canVerify, dispatch, refetch]);
  return null;
}
