import { persistStore } from 'redux-persist';
import { describe, expect, it } from 'vitest';
import { userSlice } from '@/lib/list-view-slices';
import { setCredentials } from '@/lib/session/auth-slice';
import { makeStore, persistConfig } from './store';

describe('persistence', () => {
  it('uses the seed settings and persists only the account session under persist:root', async () => {
    expect(persistConfig).toMatchObject({
      key: 'root',
      keyPrefix: 'persist:',
      timeout: 5000,
      version: -1,
    });
    const store = makeStore();
    let persistor!: ReturnType<typeof persistStore>;
    await new Promise<void>((rehydrated) => {
      persistor = persistStore(store, null, rehydrated);
    });
    store.dispatch(
      setCredentials({ userDetails: { userName: 'ada' }, accessToken: 'a1', refreshToken: 'r1' }),
    );
    store.dispatch(userSlice.actions.setSearchCriteria('someone'));
    await persistor.flush();
    const saved = JSON.parse(localStorage.getItem('persist:root')!) as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual(['_persist', 'auth']);
    expect(JSON.parse(saved.auth!)).toEqual({
      userDetails: { userName: 'ada' },
      accessToken: 'a1',
      refreshToken: 'r1',
      isAuthenticated: true,
    });
    expect(JSON.parse(saved._persist!)).toMatchObject({ version: -1 });
  });
});
