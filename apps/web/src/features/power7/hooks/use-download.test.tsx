import { configureStore } from '@reduxjs/toolkit';
import { act, renderHook } from '@testing-library/react';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSessionEndedHandler } from '@/lib/api/base-query';
import { authSlice, setCredentials } from '@/lib/signed-in/auth-slice';
import { failEnvelope, fakeJwt, PORTAL, server } from '@/testing/msw';
import { power7Url } from './use-power7-request';
import { useDownload } from './use-download';

/** A download whose token must be refreshed first: what the user is told when that refresh fails. */

function renderDownload() {
  const store = configureStore({ reducer: { auth: authSlice.reducer } });
  // expired: the download refreshes before it asks the service
  store.dispatch(setCredentials({ userDetails: { userName: 'ada' }, accessToken: fakeJwt(-60) }));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>{children}</Provider>
  );
  return { store, ...renderHook(() => useDownload(), { wrapper }) };
}

let fileAsked: boolean;
beforeEach(() => {
  fileAsked = false;
  Cookies.set('refreshToken', 'rt-0');
  setSessionEndedHandler(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(power7Url('/api/download/1-2-3-4-5-6-7/3/'), () => {
      fileAsked = true;
      return new HttpResponse('a,b\n', { headers: { 'content-type': 'text/csv' } });
    }),
  );
});
afterEach(() => {
  Cookies.remove('refreshToken');
  vi.restoreAllMocks();
});

describe('useDownload when the token refresh fails', () => {
  it('says the sign-in service cannot be reached when the portal does not answer, and keeps the session', async () => {
    server.use(http.post(`${PORTAL}/accounts/rotate-token`, () => HttpResponse.error()));
    const error = vi.spyOn(toast, 'error');
    const { result, store } = renderDownload();
    await act(() => result.current.download('/api/download/1-2-3-4-5-6-7/3/', 'f.csv'));
    expect(error).toHaveBeenCalledWith(
      'Cannot reach the sign-in service. Check your connection and try again.',
    );
    expect(fileAsked).toBe(false);
    expect(store.getState().auth.accessToken).not.toBeNull();
    expect(result.current.progress).toBeNull();
  });

  it('ends quietly when the sign-in was refused: the app goes to the sign-in page', async () => {
    server.use(
      http.post(`${PORTAL}/accounts/rotate-token`, () =>
        HttpResponse.json(failEnvelope(401, 'UNAUTHORIZED', 'Token refresh failed'), {
          status: 401,
        }),
      ),
    );
    const error = vi.spyOn(toast, 'error');
    const { result, store } = renderDownload();
    await act(() => result.current.download('/api/download/1-2-3-4-5-6-7/3/', 'f.csv'));
    expect(error).not.toHaveBeenCalled();
    expect(fileAsked).toBe(false);
    expect(store.getState().auth.accessToken).toBeNull();
  });
});
