import { PERSIST_KEY_PREFIX } from '@/config/constants';

/** The local-storage key redux-persist writes the account session to (docs/product/web.md §3/§9: `persist:root`). */
export const PERSIST_ROOT_KEY = `${PERSIST_KEY_PREFIX}root`;

let flushPending: () => Promise<unknown> = () => Promise.resolve();

/** The app hands in its persistor's `flush`, so a removal is not undone by a write still queued. */
export function registerPersistFlush(flush: () => Promise<unknown>) {
  flushPending = flush;
}

/**
 * Sign-out of docs/product/web.md §4: the persisted root state is removed from local storage. redux-persist writes
 * changed state on a timer, so the cleared session is flushed first and the key removed after it —
 * otherwise the queued write would put `persist:root` back with null values.
 */
export async function removePersistedSession() {
  await flushPending();
  localStorage.removeItem(PERSIST_ROOT_KEY);
}
