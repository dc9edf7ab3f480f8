import { PERSIST_KEY_PREFIX } from '@/config/constants';
import { refreshCookie } from '@/lib/refresh-cookie';

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
export async function removePersistedSignIn() {
  await flushPending();
  localStorage.removeItem(PERSIST_ROOT_KEY);
}

/**
 * True when this browser may hold a sign-in: a refresh cookie (the startup check restores a session
 * from it) or a persisted access token. Read without the store, so the first landing page of a
 * signed-out visitor can render before the store's code is loaded (main.tsx).
 */
export function mayHaveSignIn(storage: Storage = localStorage): boolean {
  if (refreshCookie.get()) return true;
  try {
    // redux-persist stores each whitelisted slice as a JSON string inside the root JSON object.
    const root = JSON.parse(storage.getItem(PERSIST_ROOT_KEY) ?? 'null') as {
      auth?: unknown;
    } | null;
    const auth = typeof root?.auth === 'string' ? (JSON.parse(root.auth) as unknown) : null;
    return Boolean((auth as { accessToken?: unknown } | null)?.accessToken);
  } catch {
    // Unreadable: the app itself decides.
    return true;
  }
}
