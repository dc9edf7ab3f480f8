/**
 * Where to go after signing in: the protected page the guest first asked for, if it is a path of this
 * app (`/app` or below, same origin); anything else — another origin (`//host`), a public page, a
 * malformed value — falls back to the dashboard.
 */
export function returnPathAfterSignIn(from: unknown): string {
  if (typeof from !== 'string') return '/app';
  const inApp = from === '/app' || /^\/app[/?#]/.test(from);
  return inApp && !from.includes('//') && !from.includes('\\') ? from : '/app';
}

/** The router state ProtectedRoute leaves for the sign-in page. */
export interface ReturnState {
  from?: string;
}
