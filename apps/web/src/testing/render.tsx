import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import { setSessionEndedHandler } from '@/lib/api/base-query';
import type { AuthState } from '@/lib/signed-in/auth-slice';

/** Renders the real route table at `path` with a fresh store (no persistence). */
export function renderApp(routes: RouteObject[], path: string, auth?: Partial<AuthState>) {
  const store = makeStore(
    auth
      ? {
          auth: {
            userDetails: null,
            accessToken: null,
            refreshToken: null,
            isAuthenticated: false,
            ...auth,
          },
        }
      : undefined,
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setSessionEndedHandler(() => void router.navigate('/auth/signin'));
  const utils = render(
    <AppProviders store={store} persistor={null}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, store, router };
}
