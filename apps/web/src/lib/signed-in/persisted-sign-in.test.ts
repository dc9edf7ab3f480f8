import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '@/config/constants';
import { mayHaveSignIn, PERSIST_ROOT_KEY } from './persisted-sign-in';

/** What redux-persist writes for the whitelisted auth slice. */
const persisted = (auth: object) =>
  JSON.stringify({ auth: JSON.stringify(auth), _persist: JSON.stringify({ version: -1 }) });

afterEach(() => {
  localStorage.clear();
  Cookies.remove(REFRESH_COOKIE, { path: '/' });
});

describe('mayHaveSignIn', () => {
  it('is false for a browser that never signed in or whose session was cleared', () => {
    expect(mayHaveSignIn()).toBe(false);
    localStorage.setItem(
      PERSIST_ROOT_KEY,
      persisted({ userDetails: null, accessToken: null, isAuthenticated: false }),
    );
    expect(mayHaveSignIn()).toBe(false);
  });

  it('is true with a persisted access token or a refresh cookie alone', () => {
    localStorage.setItem(
      PERSIST_ROOT_KEY,
      persisted({ accessToken: 'a.b.c', isAuthenticated: true }),
    );
    expect(mayHaveSignIn()).toBe(true);
    localStorage.clear();
    Cookies.set(REFRESH_COOKIE, 'rt-1', { path: '/' });
    expect(mayHaveSignIn()).toBe(true);
  });

  it('leaves an unreadable persisted state to the app', () => {
    localStorage.setItem(PERSIST_ROOT_KEY, '{not json');
    expect(mayHaveSignIn()).toBe(true);
  });
});
