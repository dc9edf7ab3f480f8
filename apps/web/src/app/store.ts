import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  persistStore,
  PURGE,
  REGISTER,
  REHYDRATE,
} from 'redux-persist';
// `redux-persist/lib/storage` breaks the Vite 8 production build; the ES factory works.
import createWebStorage from 'redux-persist/es/storage/createWebStorage';
import { auditSlice, permissionSlice, roleSlice, userSlice } from '@/lib/list-view-slices';
import { PERSIST_KEY_PREFIX, PERSIST_TIMEOUT_MS, PERSIST_VERSION } from '@/config/constants';
import { portalApi } from '@/lib/api/portal-api';
import { power7Api } from '@/lib/api/power7-api';
import { authSlice } from '@/lib/signed-in/auth-slice';
import { registerPersistFlush } from '@/lib/signed-in/persisted-sign-in';

export const rootReducer = combineReducers({
  [authSlice.name]: authSlice.reducer,
  [permissionSlice.name]: permissionSlice.reducer,
  [roleSlice.name]: roleSlice.reducer,
  [userSlice.name]: userSlice.reducer,
  [auditSlice.name]: auditSlice.reducer,
  [portalApi.reducerPath]: portalApi.reducer,
  [power7Api.reducerPath]: power7Api.reducer,
});

/** Seed §3/§9: only the account session is persisted, under `persist:root`, timeout 5 s, version -1. */
const persistConfig = {
  key: 'root',
  keyPrefix: PERSIST_KEY_PREFIX,
  storage: createWebStorage('local'),
  timeout: PERSIST_TIMEOUT_MS,
  version: PERSIST_VERSION,
  whitelist: [authSlice.name],
};

export function makeStore(preloadedState?: Partial<ReturnType<typeof rootReducer>>) {
  const store = configureStore({
    reducer: persistReducer(persistConfig, rootReducer),
    preloadedState: preloadedState as never,
    middleware: (getDefault) =>
      getDefault({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(portalApi.middleware, power7Api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export const store = makeStore();
export const persistor = persistStore(store);
registerPersistFlush(() => persistor.flush());

export type AppStore = ReturnType<typeof makeStore>;
