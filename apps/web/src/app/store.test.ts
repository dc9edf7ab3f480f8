import { persistStore } from 'redux-persist';
import { afterEach, describe, expect, it } from 'vitest';
import { userSlice } from '@/lib/list-view-slices';
import { setCredentials } from '@/lib/signed-in/auth-slice';
import { mayHaveSignIn, PERSIST_ROOT_KEY } from '@/lib/signed-in/persisted-sign-in';
import { makeStore } from './store';

/** A store as a page load makes it: created, then rehydrated from local storage. */
async function loadedStore() {
  const store = makeStore();
  let persistor!: ReturnType<typeof persistStore>;
  await new Promise<void>((rehydrated) => {
    persistor = persistStore(store, null, rehydrated);
  });
  return { store, persistor };
}

afterEach(() => {
  localStorage.removeItem(PERSIST_ROOT_KEY);
});

describe('persistence', () => {
  it('keeps the account session over a reload, and nothing else', async () => {
    const first = await loadedStore();
    first.store.dispatch(
      setCredentials({ userDetails: { userName: 'ada' }, accessToken: 'a1', refreshToken: 'r1' }),
    );
    first.store.dispatch(userSlice.actions.setSearchCriteria('someone'));
    await first.persistor.flush();
    first.persistor.pause();
    // what the first page load reads before the store exists (main.tsx)
    expect(mayHaveSignIn()).toBe(true);

    const reloaded = await loadedStore();
    const state = reloaded.store.getState();
    expect(state.auth).toEqual({
      userDetails: { userName: 'ada' },
      accessToken: 'a1',
      refreshToken: 'r1',
      isAuthenticated: true,
    });
    expect(state.user.searchCriteria).toBe('');
    reloaded.persistor.pause();
  });

  it('starts signed out when nothing was stored', async () => {
    expect(mayHaveSignIn()).toBe(false);
    const { store, persistor } = await loadedStore();
    expect(store.getState().auth.isAuthenticated).toBe(false);
    persistor.pause();
  });
});
