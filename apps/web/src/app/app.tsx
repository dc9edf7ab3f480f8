import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { setSessionEndedHandler } from '@/lib/api/base-query';
import { AppProviders } from './providers';
import { createAppRouter } from './router';
import { persistor, store } from './store';

export function App() {
  const [router] = useState(() => {
    const created = createAppRouter();
    // A failed refresh sends the user to sign-in without a full page load.
    setSessionEndedHandler(() => void created.navigate('/auth/signin', { replace: true }));
    return created;
  });
  return (
    <AppProviders store={store} persistor={persistor}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
