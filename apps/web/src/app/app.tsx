import { RouterProvider } from 'react-router';
import { setSessionEndedHandler } from '@/lib/api/base-query';
import { AppProviders } from './providers';
import { createAppRouter } from './router';
import { persistor, store } from './store';

type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Creates the browser router, which starts loading the current route's code. A failed refresh then
 * sends the user to sign-in without a full page load.
 */
export function startRouter(): AppRouter {
  const router = createAppRouter();
  setSessionEndedHandler(() => void router.navigate('/auth/signin', { replace: true }));
  return router;
}

/** Resolves when the router's first route has loaded its code (no fallback spinner to show). */
export function routerReady(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProviders store={store} persistor={persistor}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
