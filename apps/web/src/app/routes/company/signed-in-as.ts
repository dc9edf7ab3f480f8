import { http, HttpResponse, type RequestHandler } from 'msw';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

/** A user of the demo company holding `permissions`, as the portal's verify answers it. */
export const companyUser = (permissions: string[], overrides: Record<string, unknown> = {}) => ({
  _id: 'u1',
  userName: 'editor',
  email: 'editor@demo.local',
  userFirstName: 'Eddie',
  userLastName: 'Tor',
  phone: '',
  status: 'active',
  companyId: 'c1',
  companyName: 'Demo Company',
  roles: [],
  permissions,
  lastSignInAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

/** Opens `path` of the app signed in as `user`, the portal answering with `handlers` too. */
export function openAs(
  user: ReturnType<typeof companyUser>,
  path: string,
  ...handlers: RequestHandler[]
) {
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(user))),
    ...handlers,
  );
  renderApp(routes, path, { accessToken: fakeJwt(900), isAuthenticated: true, userDetails: user });
}
