import Cookies from 'js-cookie';
import { REFRESH_COOKIE, REFRESH_COOKIE_DAYS } from '@/config/constants';

/** The refresh token cookie of docs/product/web.md §7: script-readable, secure, same-site strict, 7 days. */
export const refreshCookie = {
  get: (): string | undefined => Cookies.get(REFRESH_COOKIE),
  set: (token: string) =>
    Cookies.set(REFRESH_COOKIE, token, {
      expires: REFRESH_COOKIE_DAYS,
      // Browsers drop Secure cookies set over plain http (a local run); everywhere else it is Secure.
      secure: window.location.protocol === 'https:',
      sameSite: 'strict',
      path: '/',
    }),
  remove: () => Cookies.remove(REFRESH_COOKIE, { path: '/' }),
};
