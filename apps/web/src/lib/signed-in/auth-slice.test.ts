import { describe, expect, it } from 'vitest';
import {
  authSlice,
  clearCredentials,
  initialAuthState,
  rotateTokens,
  selectIsAuthenticated,
  setCredentials,
  setUserDetails,
} from './auth-slice';

const reduce = authSlice.reducer;
const details = { _id: 'u1', userName: 'ada', userFirstName: 'Ada', userLastName: 'Lovelace' };

describe('auth slice', () => {
  it('starts signed out', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({
      userDetails: null,
      accessToken: null,
      refreshToken: null,
      isAuthenticated: false,
    });
  });

  it('setting credentials marks the user authenticated; rotation keeps the details', () => {
    let state = reduce(
      initialAuthState,
      setCredentials({ userDetails: details, accessToken: 'a1' }),
    );
    expect(state).toEqual({
      userDetails: details,
      accessToken: 'a1',
      refreshToken: null,
      isAuthenticated: true,
    });
    state = reduce(state, rotateTokens({ accessToken: 'a2', refreshToken: 'r2' }));
    expect(state).toMatchObject({
      userDetails: details,
      accessToken: 'a2',
      refreshToken: 'r2',
      isAuthenticated: true,
    });
    state = reduce(state, rotateTokens({ accessToken: 'a3' }));
    expect(state.refreshToken).toBe('r2');
    state = reduce(state, setUserDetails({ userFirstName: 'Augusta' }));
    expect(state.userDetails).toEqual({ ...details, userFirstName: 'Augusta' });
  });

  it('clearing empties everything', () => {
    const signedIn = reduce(
      initialAuthState,
      setCredentials({ userDetails: details, accessToken: 'a', refreshToken: 'r' }),
    );
    expect(reduce(signedIn, clearCredentials())).toEqual(initialAuthState);
  });

  it('counts as authenticated only with the flag AND an access token', () => {
    const sel = (auth: typeof initialAuthState) => selectIsAuthenticated({ auth });
    expect(sel({ ...initialAuthState, isAuthenticated: true })).toBe(false);
    expect(sel({ ...initialAuthState, accessToken: 'a' })).toBe(false);
    expect(sel({ ...initialAuthState, accessToken: 'a', isAuthenticated: true })).toBe(true);
  });
});
