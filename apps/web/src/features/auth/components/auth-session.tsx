import * as React from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { UserDetails } from '@pa/contracts/accounts';
import type { Envelope } from '@pa/contracts/envelope';
import { PORTAL_API_URL } from '@/config/env';
import { endSession, refreshSession } from '@/lib/api/base-query';
import { refreshCookie } from '@/lib/refresh-cookie';
import {
  selectAccessToken,
  selectIsAuthenticated,
  setCredentials,
  type RootStateWithAuth,
} from '@/lib/session/auth-slice';
import { isTokenExpired } from '@/lib/token';
import { useVerifyQuery } from '../api/auth-api';

const AuthReadyContext = React.createContext(false);

/** True once the startup session check (seed §4) has finished. */
export const useAuthReady = () => React.useContext(AuthReadyContext);

async function fetchUserDetails(accessToken: string): Promise<UserDetails> {
  const response = await fetch(`${PORTAL_API_URL}/api/accounts/verify`, {
    credentials: 'include',
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  const body = (await response.json().catch(() => null)) as Envelope<UserDetails> | null;
  if (!body?.success || !body.data) throw new Error('Authentication verification failed');
  return body.data;
}

/**
 * Startup of seed §4: with no access token but a refresh cookie, the session is restored (rotate,
 * then fetch the user details); an expired token is only logged and refreshed on the next call.
 * Afterwards the verification query runs while a non-expired token exists and the session is
 * authenticated; its failure ends the session.
 */
export function AuthSession({ children }: { children: React.ReactNode }) {
  const store = useStore<RootStateWithAuth>();
  const dispatch = useDispatch();
  const [ready, setReady] = React.useState(false);

  React.useEffect(() => {
    let cancelled = false;
    const init = async () => {
      try {
        const { accessToken } = store.getState().auth;
        if (!accessToken && refreshCookie.get()) {
          if (await refreshSession(store)) {
            const token = store.getState().auth.accessToken!;
            const userDetails = await fetchUserDetails(token);
            dispatch(
              setCredentials({
                userDetails,
                accessToken: store.getState().auth.accessToken ?? token,
                refreshToken: store.getState().auth.refreshToken,
              }),
            );
          }
        } else if (accessToken && isTokenExpired(accessToken)) {
          console.info('Access token expired; it will be refreshed on the next call.');
        }
      } catch (error) {
        console.error('Auth initialization error:', error);
        endSession(store);
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

function SessionVerifier() {
  const dispatch = useDispatch();
  const accessToken = useSelector(selectAccessToken);
  const isAuthenticated = useSelector(selectIsAuthenticated);
  const canVerify = isAuthenticated && !isTokenExpired(accessToken);
  const { error } = useVerifyQuery(undefined, { skip: !canVerify });

  React.useEffect(() => {
    if (error && canVerify) {
      console.error('Auth verification error:', error);
      endSession({ dispatch });
    }
  }, [error, canVerify, dispatch]);
  return null;
}
