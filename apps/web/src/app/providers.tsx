import type * as React from 'react';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import type { Persistor } from 'redux-persist';
import { ThemeProvider } from '@/components/theme-provider';
import { Toaster } from '@/components/ui/sonner';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { SignedInState } from '@/features/auth/components/signed-in-state';
import type { AppStore } from './store';

/** Store, rehydration, theme, toasts and the startup session check, in that order. */
export function AppProviders({
  store,
  persistor,
  children,
}: {
  store: AppStore;
  persistor: Persistor | null;
  children: React.ReactNode;
}) {
  const content = (
    <ThemeProvider>
      <SignedInState>{children}</SignedInState>
      <Toaster />
    </ThemeProvider>
  );
  return (
    <Provider store={store}>
      {persistor ? (
        <PersistGate loading={<FullScreenSpinner />} persistor={persistor}>
          {content}
        </PersistGate>
      ) : (
        content
      )}
    </Provider>
  );
}
